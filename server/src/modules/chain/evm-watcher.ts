import type { Kysely } from 'kysely';
import { type Block, getAddress, type Hash, type Log, type PublicClient, parseAbiItem, type Transaction } from 'viem';
import type { Database } from '../../db/schema.ts';
import { type CoinCode, nativeCoinOf } from '../catalogue/catalogue.ts';
import { advanceConfirmations, depositAddressOwners, dropAboveFork, recordObserved } from '../deposits/processor.ts';
import type { EvmChainRuntime } from './chain-config.ts';
import { createEvmClient } from './evm-client.ts';
import type { ChainWatcher, EvmLogObserver, ObservedTransfer, TickReport, WatcherFence } from './watcher.ts';

/**
 * EVM deposit watcher over JSON-RPC (viem): scans blocks after a stored cursor for native
 * transfers to deposit addresses (block transactions, successful receipts only) and ERC-20
 * `Transfer` logs of the catalogue's tokens; records them, then counts confirmations on the
 * verified chain. Resumable: the cursor (number + hash) and recent block hashes live in the DB.
 * A cursor hash that no longer matches the chain is a reorg: the fork point is found from the
 * stored hashes, unconfirmed deposits above it are dropped and the blocks rescanned.
 */

const transferEvent = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)');

/** Blocks scanned per tick (bounded work per tick; the runner ticks again at once while behind). */
const DEFAULT_BATCH_BLOCKS = 25;
/** Block hashes kept per network for finding a fork point (deeper than any confirmation count). */
const KEEP_BLOCK_HASHES = 512;

export interface EvmWatcherOptions {
  db: Kysely<Database>;
  runtime: EvmChainRuntime;
  /** Where a network with no cursor starts: a block number, or the current tip ('tip'). */
  startBlock: bigint | 'tip';
  batchBlocks?: number;
  now?: () => Date;
  log?: (msg: string, details?: Record<string, unknown>) => void;
  client?: PublicClient;
  /** Contract-event readers sharing this watcher's blocks, cursor and reorg handling (rewards check-ins). */
  observers?: readonly EvmLogObserver[];
  /** Fences the cursor's writes (scan and reorg) when the watcher runs under a lease. */
  fence?: WatcherFence;
}

type FullBlock = Block<bigint, true, 'latest'>;

/** The longest prefix of blocks that links to the cursor and to each other (also used by modules/exchange). */
export function linkedPrefix<B extends Pick<Block, 'hash' | 'parentHash'>>(
  blocks: B[],
  parent: string | undefined,
): B[] {
  const out: B[] = [];
  let previous = parent;
  for (const b of blocks) {
    if (previous !== undefined && b.parentHash !== previous) break;
    out.push(b);
    previous = b.hash ?? undefined;
  }
  return out;
}

export function createEvmWatcher(options: EvmWatcherOptions): ChainWatcher {
  const { db, runtime } = options;
  const network = runtime.network;
  const client = options.client ?? createEvmClient(runtime.rpcUrl);
  const now = options.now ?? (() => new Date());
  const log = options.log ?? (() => {});
  const batch = BigInt(options.batchBlocks ?? DEFAULT_BATCH_BLOCKS);
  const nativeCoin = nativeCoinOf(network);
  const tokenCoins = new Map(
    Object.entries(runtime.tokens).map(([coin, address]) => [address.toLowerCase(), coin as CoinCode]),
  );
  const tokenAddresses = Object.values(runtime.tokens);
  const observers = options.observers ?? [];

  async function readCursor() {
    const row = await db.selectFrom('chain_cursors').selectAll().where('network', '=', network).executeTakeFirst();
    return row ? { number: BigInt(row.block_number), hash: row.block_hash } : undefined;
  }

  async function hashAt(n: bigint): Promise<Hash | undefined> {
    try {
      return (await client.getBlock({ blockNumber: n })).hash ?? undefined;
    } catch {
      return undefined; // above the tip after the chain got shorter
    }
  }

  /** Walks back the stored hashes to the highest block still on the chain; rewinds there. */
  async function rewind(tip: bigint): Promise<bigint> {
    const stored = await db
      .selectFrom('chain_blocks')
      .select(['block_number', 'block_hash'])
      .where('network', '=', network)
      .orderBy('block_number', 'desc')
      .limit(KEEP_BLOCK_HASHES)
      .execute();
    let fork: { number: bigint; hash: string } | undefined;
    for (const row of stored) {
      const n = BigInt(row.block_number);
      if (n > tip) continue;
      if ((await hashAt(n)) === row.block_hash) {
        fork = { number: n, hash: row.block_hash };
        break;
      }
    }
    if (!fork) {
      // Deeper than what is stored: go back to just below the oldest stored block (or the tip).
      const oldest = stored.at(-1);
      let n = oldest ? BigInt(oldest.block_number) - 1n : tip;
      if (n > tip) n = tip;
      if (n < 0n) n = 0n;
      fork = { number: n, hash: (await hashAt(n)) ?? '' };
    }
    const at = now();
    const forkPoint = fork;
    const result = await db.transaction().execute(async (trx) => {
      await options.fence?.(trx);
      const dropped = await dropAboveFork(trx, network, forkPoint.number, at);
      for (const o of observers) dropped.creditedAbove += await o.dropAbove(trx, forkPoint.number, at);
      await trx
        .deleteFrom('chain_blocks')
        .where('network', '=', network)
        .where('block_number', '>', forkPoint.number.toString())
        .execute();
      await trx
        .updateTable('chain_cursors')
        .set({ block_number: forkPoint.number.toString(), block_hash: forkPoint.hash, updated_at: at })
        .where('network', '=', network)
        .execute();
      return dropped;
    });
    const details = { network, forkBlock: forkPoint.number.toString(), ...result };
    if (result.creditedAbove > 0)
      log('REORG DEEPER THAN THE CONFIRMATION COUNT: credited deposits above the fork', details);
    else log('chain reorganisation: rescanning from the fork point', details);
    return forkPoint.number;
  }

  async function fetchBlocks(from: bigint, to: bigint): Promise<FullBlock[]> {
    const numbers: bigint[] = [];
    for (let n = from; n <= to; n++) numbers.push(n);
    return Promise.all(numbers.map((n) => client.getBlock({ blockNumber: n, includeTransactions: true })));
  }

  /** Each observer's events in the blocks, checked against the blocks' hashes like the token logs. */
  async function observerLogs(blocks: FullBlock[]): Promise<Log[][]> {
    const first = blocks[0];
    const last = blocks.at(-1);
    if (!first || !last || observers.length === 0) return observers.map(() => []);
    const hashes = new Map(blocks.map((b) => [b.number, b.hash]));
    return Promise.all(
      observers.map(async (o) => {
        const logs = await client.getLogs({
          address: o.address,
          event: o.event,
          fromBlock: first.number as bigint,
          toBlock: last.number as bigint,
        });
        for (const l of logs) {
          if (hashes.get(l.blockNumber) !== l.blockHash) throw new Error('logs and blocks disagree (reorg under way)');
        }
        return logs as Log[];
      }),
    );
  }

  async function observe(blocks: FullBlock[]): Promise<ObservedTransfer[]> {
    const first = blocks[0];
    const last = blocks.at(-1);
    if (!first || !last) return [];
    const hashes = new Map(blocks.map((b) => [b.number, b.hash]));
    const candidates: ObservedTransfer[] = [];
    const nativeTxs = new Map<string, Transaction>();
    for (const b of blocks) {
      for (const tx of b.transactions) {
        if (!tx.to || tx.value <= 0n) continue;
        const to = getAddress(tx.to);
        nativeTxs.set(tx.hash, tx);
        candidates.push({
          network,
          coin: nativeCoin,
          txHash: tx.hash,
          outputIndex: -1,
          fromAddress: getAddress(tx.from),
          toAddress: to,
          chainAmount: tx.value,
          blockNumber: b.number as bigint,
          blockHash: b.hash as string,
        });
      }
    }
    if (tokenAddresses.length > 0) {
      const logs = await client.getLogs({
        address: tokenAddresses,
        event: transferEvent,
        fromBlock: first.number as bigint,
        toBlock: last.number as bigint,
      });
      for (const l of logs) {
        // A log from another fork of the chain than the blocks we read: retry the whole range.
        if (hashes.get(l.blockNumber) !== l.blockHash) throw new Error('logs and blocks disagree (reorg under way)');
        const coin = tokenCoins.get(l.address.toLowerCase());
        const { from, to, value } = l.args;
        if (!coin || !to || value === undefined || value <= 0n) continue;
        candidates.push({
          network,
          coin,
          txHash: l.transactionHash,
          outputIndex: l.logIndex,
          fromAddress: from ? getAddress(from) : null,
          toAddress: getAddress(to),
          chainAmount: value,
          blockNumber: l.blockNumber,
          blockHash: l.blockHash,
        });
      }
    }
    const owners = await depositAddressOwners(
      db,
      network,
      candidates.map((c) => c.toAddress),
    );
    const ours = candidates.filter((c) => owners.has(c.toAddress));
    // A reverted transaction still carries its value field: only successful ones moved coins.
    const kept: ObservedTransfer[] = [];
    for (const c of ours) {
      if (c.outputIndex === -1 && nativeTxs.has(c.txHash)) {
        const receipt = await client.getTransactionReceipt({ hash: c.txHash as Hash });
        if (receipt.status !== 'success') continue;
      }
      kept.push(c);
    }
    return kept;
  }

  return {
    network,
    async tick(): Promise<TickReport> {
      const tip = await client.getBlockNumber({ cacheTime: 0 });
      let cursor = await readCursor();
      let reorgForkBlock: bigint | undefined;
      if (cursor && (cursor.number > tip || (await hashAt(cursor.number)) !== cursor.hash)) {
        reorgForkBlock = await rewind(tip);
        cursor = await readCursor();
      }
      const from = cursor ? cursor.number + 1n : options.startBlock === 'tip' ? tip : options.startBlock;
      let to = from + batch - 1n;
      if (to > tip) to = tip;
      let observed = 0;
      let scannedTo = cursor?.number ?? null;
      if (from <= to) {
        const blocks = linkedPrefix(await fetchBlocks(from, to), cursor?.hash);
        const last = blocks.at(-1);
        if (last) {
          const transfers = await observe(blocks);
          const events = await observerLogs(blocks);
          const at = now();
          observed = await db.transaction().execute(async (trx) => {
            await options.fence?.(trx);
            let n = await recordObserved(trx, transfers, at);
            for (const [i, o] of observers.entries()) n += await o.record(trx, events[i] ?? [], at);
            await trx
              .insertInto('chain_blocks')
              .values(
                blocks.map((b) => ({
                  network,
                  block_number: (b.number as bigint).toString(),
                  block_hash: b.hash as string,
                  parent_hash: b.parentHash,
                })),
              )
              .onConflict((oc) =>
                oc.columns(['network', 'block_number']).doUpdateSet((eb) => ({
                  block_hash: eb.ref('excluded.block_hash'),
                  parent_hash: eb.ref('excluded.parent_hash'),
                })),
              )
              .execute();
            const lastNumber = (last.number as bigint).toString();
            await trx
              .insertInto('chain_cursors')
              .values({ network, block_number: lastNumber, block_hash: last.hash as string, updated_at: at })
              .onConflict((oc) =>
                oc
                  .column('network')
                  .doUpdateSet({ block_number: lastNumber, block_hash: last.hash as string, updated_at: at }),
              )
              .execute();
            await trx
              .deleteFrom('chain_blocks')
              .where('network', '=', network)
              .where('block_number', '<=', ((last.number as bigint) - BigInt(KEEP_BLOCK_HASHES)).toString())
              .execute();
            return n;
          });
          scannedTo = last.number as bigint;
        }
      }
      let credited = scannedTo === null ? 0 : await advanceConfirmations(db, network, scannedTo, now());
      if (scannedTo !== null) for (const o of observers) credited += await o.confirm(db, scannedTo, now());
      return {
        network,
        scannedTo,
        observed,
        credited,
        ...(reorgForkBlock === undefined ? {} : { reorgForkBlock }),
        behind: scannedTo === null || scannedTo < tip,
      };
    },
  };
}
