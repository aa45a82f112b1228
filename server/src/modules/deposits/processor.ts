import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { findCoinNetwork, type NetworkCode } from '../catalogue/catalogue.ts';
import { bookDepositCustody } from '../custody/custody-book.ts';
import { creditDeposit } from '../ledger/operations.ts';
import { recordUserNotice } from '../notices/repository.ts';
import { raiseDeepReorgAlert } from './reorg-alerts.ts';

/**
 * Deposit bookkeeping shared by every chain watcher: record what the chain shows, count
 * confirmations, credit exactly once, and undo unconfirmed deposits of blocks a reorg removed.
 * Every step is written to the database before the watcher moves its cursor.
 */

type Db = Kysely<Database> | Transaction<Database>;

export const depositIdempotencyKey = (network: NetworkCode, txHash: string, outputIndex: number) =>
  `deposit:${network}:${txHash}:${outputIndex}`;

/** Deposits whose blocks a watcher re-checks this many blocks below the tip once credited (deep reorgs). */
export const CREDITED_RECHECK_BLOCKS = 100n;
/** Distinct heights re-checked per tick (bounded work; the lowest first: the fork point is the lowest mismatch). */
const RECHECK_HEIGHTS = 200;

/**
 * Heights and block hashes a reorg could still remove: every unconfirmed deposit's, and those of
 * credited deposits within CREDITED_RECHECK_BLOCKS of the tip not alerted yet (a reorg deeper than
 * the confirmations must raise a deep-reorg alert on address-indexed chains too). Lowest first.
 */
export function depositsToRecheck(db: Db, network: NetworkCode, tip: bigint) {
  const floor = (tip - CREDITED_RECHECK_BLOCKS).toString();
  return db
    .selectFrom('deposits')
    .select(['block_number', 'block_hash'])
    .distinct()
    .where('network', '=', network)
    .where((eb) =>
      eb.or([
        eb('state', '=', 'confirming'),
        eb.and([eb('state', '=', 'successful'), eb('block_number', '>', floor), eb('reorg_alert_id', 'is', null)]),
      ]),
    )
    .orderBy('block_number')
    .limit(RECHECK_HEIGHTS)
    .execute();
}

/** The chain's hash at a height now, from the node (never a cache); undefined: the node has no such block. */
export type BlockHashCheck = (height: bigint) => Promise<string | undefined>;

const OWNER_LOOKUP_CHUNK = 1000;

/** The given transaction hashes that are recorded deposits to the address (any state). */
export async function recordedTxHashes(
  db: Db,
  network: NetworkCode,
  address: string,
  txHashes: readonly string[],
): Promise<Set<string>> {
  const unique = [...new Set(txHashes)].slice(0, OWNER_LOOKUP_CHUNK);
  if (unique.length === 0) return new Set();
  const rows = await db
    .selectFrom('deposits')
    .select('tx_hash')
    .distinct()
    .where('network', '=', network)
    .where('to_address', '=', address)
    .where('tx_hash', 'in', unique)
    .execute();
  return new Set(rows.map((r) => r.tx_hash));
}

/** userId of each of the given addresses that is one of our deposit addresses on the network. */
export async function depositAddressOwners(
  db: Db,
  network: NetworkCode,
  addresses: readonly string[],
): Promise<Map<string, string>> {
  const unique = [...new Set(addresses)];
  const owners = new Map<string, string>();
  // Chunks keep each statement far below PostgreSQL's parameter limit on a busy block.
  for (let i = 0; i < unique.length; i += OWNER_LOOKUP_CHUNK) {
    const rows = await db
      .selectFrom('deposit_addresses')
      .select(['address', 'user_id'])
      .where('network', '=', network)
      .where('address', 'in', unique.slice(i, i + OWNER_LOOKUP_CHUNK))
      .execute();
    for (const r of rows) owners.set(r.address, r.user_id);
  }
  return owners;
}

/**
 * A reorg replaced the blocks above `forkBlock`: unconfirmed deposits there are marked failed
 * ('reorged'); if the rescan finds the same transfer again it is revived (recordObserved).
 * Returns how many were dropped, and how many CREDITED deposits sit above the fork (must be 0
 * while reorgs stay shallower than the confirmation count; the caller logs loudly otherwise).
 */
export async function dropAboveFork(
  trx: Db,
  network: NetworkCode,
  forkBlock: bigint,
  now: Date,
): Promise<{ dropped: number; creditedAbove: number }> {
  const dropped = await trx
    .updateTable('deposits')
    .set({ state: 'failed', reason: 'reorged', confirmations: 0, updated_at: now, completed_at: now })
    .where('network', '=', network)
    .where('state', '=', 'confirming')
    .where('block_number', '>', forkBlock.toString())
    .executeTakeFirst();
  // Credited deposits above the fork: deeper than their confirmations. An alert, and their users'
  // withdrawals frozen until an operator resolves it (reorg-alerts.ts), in this same transaction.
  const creditedAbove = await raiseDeepReorgAlert(trx, network, forkBlock, now);
  return { dropped: Number(dropped.numUpdatedRows), creditedAbove };
}

/** The ledger refuses legs above 10^60 (ledger/model.ts); such a transfer is recorded as failed, for review. */
const MAX_CREDIT_MINOR = 10n ** 60n;

/** Bound on deposits finished per tick, so one tick stays short. */
const ADVANCE_BATCH = 200;

/**
 * Sets the confirmation count of the network's confirming deposits from the highest verified
 * block, and finishes those that reached their count: credited once (ledger idempotency key
 * `deposit:<network>:<tx>:<index>`, same transaction as the state change), or failed with
 * reason 'below_minimum'. Returns how many were credited.
 */
export async function advanceConfirmations(
  db: Kysely<Database>,
  network: NetworkCode,
  verifiedHeight: bigint,
  now: Date,
  checkHash?: BlockHashCheck,
): Promise<number> {
  const count = sql<number>`least(greatest(${verifiedHeight.toString()}::bigint - block_number + 1, 0), 2147483647)::int`;
  await db
    .updateTable('deposits')
    .set({ confirmations: count, updated_at: now })
    .where('network', '=', network)
    .where('state', '=', 'confirming')
    // Only rows whose count changed: the watchers poll several times a second.
    .where('confirmations', '<>', count)
    .execute();
  const ready = await db
    .selectFrom('deposits')
    .select('id')
    .where('network', '=', network)
    .where('state', '=', 'confirming')
    .whereRef('confirmations', '>=', 'required_confirmations')
    .orderBy('block_number')
    .limit(ADVANCE_BATCH)
    .execute();
  let credited = 0;
  // One deposit that cannot be finished must not hold back the others: fail the tick afterwards.
  const errors: unknown[] = [];
  for (const { id } of ready) {
    try {
      if (await finishDeposit(db, id, now, checkHash)) credited++;
    } catch (err) {
      errors.push(err);
    }
  }
  if (errors.length > 0)
    throw new AggregateError(errors, `${errors.length} deposit(s) on ${network} could not be finished`);
  return credited;
}

/**
 * Credits (or fails below the minimum) one confirmed deposit; true when it was credited now. With
 * `checkHash` (watchers that read by address, whose confirmations are not counted on a verified chain
 * of blocks) the deposit's block hash is asked of the node in the crediting transaction: a different
 * hash is a reorg, the deposit and those above are dropped instead; no answer credits nothing yet.
 */
async function finishDeposit(
  db: Kysely<Database>,
  id: string,
  now: Date,
  checkHash?: BlockHashCheck,
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const d = await trx.selectFrom('deposits').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
    if (d?.state !== 'confirming' || d.confirmations < d.required_confirmations) return false;
    if (checkHash) {
      const height = BigInt(d.block_number);
      const hash = await checkHash(height);
      if (hash === undefined) return false;
      if (hash !== d.block_hash) {
        await dropAboveFork(trx, d.network, height - 1n, now);
        return false;
      }
    }
    const coin = d.coin;
    const network = d.network;
    const pair = findCoinNetwork(coin, network);
    const amountMinor = BigInt(d.amount_minor);
    const reason =
      !pair || amountMinor < pair.minDepositMinor || amountMinor <= 0n
        ? 'below_minimum'
        : amountMinor > MAX_CREDIT_MINOR
          ? 'amount_too_large'
          : undefined;
    if (reason) {
      await trx
        .updateTable('deposits')
        .set({ state: 'failed', reason, updated_at: now, completed_at: now })
        .where('id', '=', id)
        .execute();
      return false;
    }
    const { transfer } = await creditDeposit(
      trx,
      {
        idempotencyKey: depositIdempotencyKey(network, d.tx_hash, d.output_index),
        userId: d.user_id,
        asset: coin,
        amountMinor,
        metadata: {
          depositId: d.id,
          network,
          txHash: d.tx_hash,
          outputIndex: d.output_index,
          chainAmount: d.chain_amount,
        },
      },
      now,
    );
    await trx
      .updateTable('deposits')
      .set({ state: 'successful', credited_transfer_id: transfer.id, updated_at: now, completed_at: now })
      .where('id', '=', id)
      .execute();
    // The coins on the deposit address enter the custody book with the credit (modules/custody).
    await bookDepositCustody(trx, d, now);
    // The user's system notice, in the credit's transaction: one per deposit, never lost, never twice.
    await recordUserNotice(
      trx,
      {
        userId: d.user_id,
        kind: 'deposit_credited',
        params: { coin, network, amountMinor: amountMinor.toString(), depositId: d.id },
        dedupeKey: `deposit:${d.id}`,
      },
      now,
    );
    return true;
  });
}
