import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { findCoinNetwork, type NetworkCode, toLedgerMinor } from '../catalogue/catalogue.ts';
import type { ObservedTransfer } from '../chain/watcher.ts';
import { sweepTransactionHashes } from '../custody/sweeps-repository.ts';
import { raiseChainAlert } from './chain-alerts.ts';
import { depositAddressOwners } from './processor.ts';

/**
 * Records what a watcher saw as confirming deposits, matching each transfer to the deposit already
 * recorded for it (issue 39). A transfer is the same deposit as a row of the same transaction when
 * coin, recipient and amount agree: first at the same position, then anywhere in the transaction
 * (rows recorded before issue 39 keyed an EVM token log by its index in the BLOCK, which a re-mining
 * changes). A matched row that a reorg had dropped is revived in its new block; user, coin, recipient
 * and amount are never rewritten. A transfer that matches nothing where a row already holds its
 * position (the re-mined transaction pays differently) becomes a row of its own, at
 * `position ± k * REMINED_INDEX_STRIDE` (away from zero), and a chain alert.
 */
type Db = Kysely<Database> | Transaction<Database>;

/** Rows of a re-mined transfer that differs sit this far above the position (no transaction has 10^6 logs). */
export const REMINED_INDEX_STRIDE = 1_000_000;
const TX_LOOKUP_CHUNK = 1000;

interface RecordedRow {
  id: string;
  tx_hash: string;
  output_index: number;
  coin: string;
  to_address: string;
  chain_amount: string;
  state: string;
  reason: string | null;
}

/** A row's position within its transaction (negative: native transfers, -1 the value, -2 - k internal calls). */
const positionOf = (outputIndex: number) => Math.sign(outputIndex) * (Math.abs(outputIndex) % REMINED_INDEX_STRIDE);
const variantOf = (outputIndex: number) => Math.floor(Math.abs(outputIndex) / REMINED_INDEX_STRIDE);
const sameTransfer = (r: RecordedRow, t: ObservedTransfer) =>
  r.coin === t.coin && r.to_address === t.toAddress && r.chain_amount === t.chainAmount.toString();

async function recordedRows(
  trx: Db,
  network: NetworkCode,
  hashes: readonly string[],
): Promise<Map<string, RecordedRow[]>> {
  const unique = [...new Set(hashes)];
  const byTx = new Map<string, RecordedRow[]>();
  for (let i = 0; i < unique.length; i += TX_LOOKUP_CHUNK) {
    const rows = await trx
      .selectFrom('deposits')
      .select(['id', 'tx_hash', 'output_index', 'coin', 'to_address', 'chain_amount', 'state', 'reason'])
      .where('network', '=', network)
      .where('tx_hash', 'in', unique.slice(i, i + TX_LOOKUP_CHUNK))
      .orderBy('output_index')
      .forUpdate()
      .execute();
    for (const r of rows) byTx.set(r.tx_hash, [...(byTx.get(r.tx_hash) ?? []), r]);
  }
  return byTx;
}

/** Pairs each transfer of one transaction with its recorded row (exact position first, then content). */
function matchRows(rows: readonly RecordedRow[], transfers: readonly ObservedTransfer[]) {
  const claimed = new Set<string>();
  const match = new Map<ObservedTransfer, RecordedRow>();
  const pass = (fits: (r: RecordedRow, t: ObservedTransfer) => boolean) => {
    for (const t of transfers) {
      if (match.has(t)) continue;
      const row = rows.find((r) => !claimed.has(r.id) && fits(r, t));
      if (row) {
        claimed.add(row.id);
        match.set(t, row);
      }
    }
  };
  pass((r, t) => positionOf(r.output_index) === t.outputIndex && sameTransfer(r, t));
  pass(sameTransfer);
  return match;
}

/**
 * Inserts the observed transfers as confirming deposits (owner looked up by address), revives a
 * matched row a reorg dropped, and leaves any other matched row alone. Returns rows inserted or revived.
 */
export async function recordObserved(trx: Db, transfers: readonly ObservedTransfer[], now: Date): Promise<number> {
  const network = transfers[0]?.network;
  if (network === undefined) return 0;
  const owners = await depositAddressOwners(
    trx,
    network,
    transfers.map((t) => t.toAddress),
  );
  // Gas the hot wallet sent to a deposit address for a sweep is ours, not the user's deposit.
  const ownTransactions = await sweepTransactionHashes(
    trx,
    transfers.map((t) => t.txHash),
  );
  const eligible = transfers.filter(
    (t) =>
      !ownTransactions.has(t.txHash) &&
      owners.has(t.toAddress) &&
      findCoinNetwork(t.coin, t.network) !== undefined &&
      t.chainAmount > 0n,
  );
  const recorded = await recordedRows(
    trx,
    network,
    eligible.map((t) => t.txHash),
  );
  const byTx = new Map<string, ObservedTransfer[]>();
  for (const t of eligible) byTx.set(t.txHash, [...(byTx.get(t.txHash) ?? []), t]);
  let changed = 0;
  for (const [txHash, group] of byTx) {
    const rows = recorded.get(txHash) ?? [];
    const match = matchRows(rows, group);
    for (const t of group) {
      const row = match.get(t);
      if (row) changed += await reviveIfReorged(trx, row, t, now);
      else changed += await insertNew(trx, rows, t, owners.get(t.toAddress) as string, now);
    }
  }
  return changed;
}

async function reviveIfReorged(trx: Db, row: RecordedRow, t: ObservedTransfer, now: Date): Promise<number> {
  if (row.state !== 'failed' || row.reason !== 'reorged') return 0;
  const done = await trx
    .updateTable('deposits')
    .set({
      state: 'confirming',
      reason: null,
      block_number: t.blockNumber.toString(),
      block_hash: t.blockHash,
      confirmations: 0,
      completed_at: null,
      updated_at: now,
    })
    .where('id', '=', row.id)
    .where('state', '=', 'failed')
    .where('reason', '=', 'reorged')
    .executeTakeFirst();
  return Number(done.numUpdatedRows);
}

async function insertNew(
  trx: Db,
  rows: readonly RecordedRow[],
  t: ObservedTransfer,
  userId: string,
  now: Date,
): Promise<number> {
  const pair = findCoinNetwork(t.coin, t.network);
  if (!pair) return 0;
  const atPosition = rows.filter((r) => positionOf(r.output_index) === t.outputIndex);
  const variant = atPosition.length === 0 ? 0 : 1 + Math.max(...atPosition.map((r) => variantOf(r.output_index)));
  const outputIndex = t.outputIndex + Math.sign(t.outputIndex || 1) * REMINED_INDEX_STRIDE * variant;
  const result = await trx
    .insertInto('deposits')
    .values({
      user_id: userId,
      network: t.network,
      coin: t.coin,
      tx_hash: t.txHash,
      output_index: outputIndex,
      from_address: t.fromAddress,
      to_address: t.toAddress,
      chain_amount: t.chainAmount.toString(),
      amount_minor: toLedgerMinor(t.coin, t.network, t.chainAmount).toString(),
      block_number: t.blockNumber.toString(),
      block_hash: t.blockHash,
      confirmations: 0,
      required_confirmations: pair.confirmations,
      state: 'confirming',
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) => oc.columns(['network', 'tx_hash', 'output_index']).doNothing())
    .executeTakeFirst();
  const inserted = Number(result.numInsertedOrUpdatedRows ?? 0n);
  if (inserted === 1 && atPosition.length > 0) {
    const was = atPosition[0] as RecordedRow;
    await raiseChainAlert(
      trx,
      {
        network: t.network,
        kind: 'remined_transfer_differs',
        dedupeKey: `${t.txHash}:${outputIndex}`,
        detail:
          `transaction ${t.txHash} position ${t.outputIndex} re-mined in block ${t.blockNumber} pays ` +
          `${t.chainAmount} ${t.coin} to ${t.toAddress}; recorded: ${was.chain_amount} ${was.coin} to ${was.to_address} ` +
          `(deposit ${was.id}, ${was.state}); recorded as a new deposit`,
      },
      now,
    );
  }
  return inserted;
}
