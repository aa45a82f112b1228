import type { Kysely } from 'kysely';
import { type Block, BlockNotFoundError, type Hash, type Log, type PublicClient } from 'viem';
import type { Database } from '../../db/schema.ts';
import { raiseChainAlert } from '../deposits/chain-alerts.ts';
import { advanceConfirmations, dropAboveFork } from '../deposits/processor.ts';
import { recordObserved } from '../deposits/record-observed.ts';
import type { EvmChainRuntime } from './chain-config.ts';
import { createUnexplainedBalanceCheck } from './evm-balance-check.ts';
import { createEvmClient } from './evm-client.ts';
import { tracingSwitch } from './evm-internal.ts';
import { blockEventLogs } from './evm-logs.ts';
import { createWatchedTopics, type FullBlock, observeTransfers } from './evm-transfers.ts';
import type { ChainWatcher, EvmLogObserver, ObservedTransfer, TickReport, WatcherFence } from './watcher.ts';

/**
 * EVM deposit watcher over JSON-RPC (viem): scans blocks after a stored cursor for native
 * transfers to deposit addresses (block transactions, successful receipts only) and ERC-20
 * `Transfer` logs of the catalogue's tokens; records them, then counts confirmations on the
 * verified chain. Resumable: the cursor (number + hash) and recent block hashes live in the DB.
 * A cursor hash that no longer matches the chain is a reorg: the fork point is found from the
 * stored hashes, unconfirmed deposits above it are dropped and the blocks rescanned.
 * A node is not trusted to be in sync (issue 39): a tip below the cursor means waiting, an RPC error
 * fails the tick (retried with back-off) and never counts as "no block", only a stored hash the node
 * confirms is a fork point (none: a chain alert and a halt, never a jump to the tip), and the node's
 * chain id must be the configured one.
 */

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

/** No stored block hash is on the node's chain: the watcher stops rather than skip blocks (chain alert raised). */
export class ForkNotFoundError extends Error {
  constructor(network: string, tip: bigint) {
    super(`${network}: no stored block hash is on the node's chain (tip ${tip}); watcher halted, see chain alerts`);
  }
}

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
  const observers = options.observers ?? [];
  const watchedTopics = createWatchedTopics(db, network);
  const balanceCheck = createUnexplainedBalanceCheck({
    db,
    client,
    network,
    now,
    ...(options.fence ? { fence: options.fence } : {}),
  });
  const traceInternal = tracingSwitch(client, runtime.traceInternal === true, () =>
    log(
      'WARNING: internal-call tracing is configured but the node has no debug API; not tracing, checking deposit addresses for unexplained native balance instead',
      { network },
    ),
  );

  async function readCursor() {
    const row = await db.selectFrom('chain_cursors').selectAll().where('network', '=', network).executeTakeFirst();
    return row ? { number: BigInt(row.block_number), hash: row.block_hash } : undefined;
  }

  /** The node's hash at height n; undefined only when the node has no such block. Other errors propagate. */
  async function hashAt(n: bigint): Promise<Hash | undefined> {
    try {
      return (await client.getBlock({ blockNumber: n })).hash ?? undefined;
    } catch (err) {
      if (err instanceof BlockNotFoundError) return undefined;
      throw err; // a 429 or a timeout says nothing about the chain: the tick fails and is retried
    }
  }

  /** The highest stored block still on the node's chain (a block the node lacks is skipped, not a mismatch). */
  async function findFork(tip: bigint): Promise<{ number: bigint; hash: string } | undefined> {
    const stored = await db
      .selectFrom('chain_blocks')
      .select(['block_number', 'block_hash'])
      .where('network', '=', network)
      .orderBy('block_number', 'desc')
      .limit(KEEP_BLOCK_HASHES)
      .execute();
    for (const row of stored) {
      const n = BigInt(row.block_number);
      if (n > tip) continue;
      if ((await hashAt(n)) === row.block_hash) return { number: n, hash: row.block_hash };
    }
    return undefined;
  }

  /** Rewinds to the fork point; with none, alerts and stops (the cursor never jumps over unscanned blocks). */
  async function rewind(tip: bigint): Promise<bigint> {
    const forkPoint = await findFork(tip);
    const at = now();
    if (!forkPoint) {
      const cursor = await readCursor();
      await db.transaction().execute(async (trx) => {
        await options.fence?.(trx);
        await raiseChainAlert(
          trx,
          {
            network,
            kind: 'fork_not_found',
            dedupeKey: `cursor:${cursor?.number}:${cursor?.hash}`,
            detail: `no stored block hash (the last ${KEEP_BLOCK_HASHES}) is on the node's chain (tip ${tip}); the watcher stops until one is`,
          },
          at,
        );
      });
      throw new ForkNotFoundError(network, tip);
    }
    const result = await db.transaction().execute(async (trx) => {
      await options.fence?.(trx);
      const dropped = await dropAboveFork(trx, network, forkPoint.number, at);
      // Observers' confirmed events (rewards check-ins) are counted apart: they are not deposits.
      let confirmedEventsAbove = 0;
      for (const o of observers) confirmedEventsAbove += await o.dropAbove(trx, forkPoint.number, at);
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
      return { ...dropped, confirmedEventsAbove };
    });
    const details = { network, forkBlock: forkPoint.number.toString(), ...result };
    const deep = [
      ...(result.creditedAbove > 0 ? ['credited deposits'] : []),
      ...(result.confirmedEventsAbove > 0 ? ['confirmed check-ins'] : []),
    ];
    if (deep.length > 0) log(`REORG DEEPER THAN THE CONFIRMATION COUNT: ${deep.join(' and ')} above the fork`, details);
    else log('chain reorganisation: rescanning from the fork point', details);
    return forkPoint.number;
  }

  async function fetchBlocks(from: bigint, to: bigint): Promise<FullBlock[]> {
    const numbers: bigint[] = [];
    for (let n = from; n <= to; n++) numbers.push(n);
    return Promise.all(numbers.map((n) => client.getBlock({ blockNumber: n, includeTransactions: true })));
  }

  /** Each observer's events in the blocks, read per block by hash like the token logs. */
  async function observerLogs(blocks: FullBlock[]): Promise<Log[][]> {
    return Promise.all(
      observers.map(async (o) =>
        (await Promise.all(blocks.map((b) => blockEventLogs(client, b, [o.address], o.event)))).flat(),
      ),
    );
  }

  /** Records the scanned blocks' transfers and events, their hashes and the cursor, in one transaction. */
  async function recordScan(blocks: FullBlock[], transfers: ObservedTransfer[], events: Log[][]): Promise<number> {
    const at = now();
    const last = blocks.at(-1);
    if (!last) return 0;
    const lastNumber = (last.number as bigint).toString();
    return db.transaction().execute(async (trx) => {
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
  }

  /** A node on another chain (a testnet URL) must not credit anything: alert and stop. */
  async function wrongChain(chainId: number): Promise<never> {
    await db.transaction().execute(async (trx) => {
      await options.fence?.(trx);
      await raiseChainAlert(
        trx,
        {
          network,
          kind: 'chain_id_mismatch',
          dedupeKey: `chain:${chainId}`,
          detail: `the node answers for chain ${chainId}, configured ${runtime.chainId}`,
        },
        now(),
      );
    });
    throw new Error(`${network}: the node is on chain ${chainId}, configured ${runtime.chainId}; not scanning`);
  }

  /** The node has not reached the cursor: nothing scanned, nothing dropped, nothing credited. */
  let waitingLogged = false; // one log line per wait, not one per poll
  function waiting(cursor: bigint): TickReport {
    if (!waitingLogged) log('node behind the cursor: waiting for it', { network, cursor: cursor.toString() });
    waitingLogged = true;
    return { network, scannedTo: cursor, observed: 0, credited: 0, behind: false, nodeBehind: true };
  }

  return {
    network,
    async tick(): Promise<TickReport> {
      const [tip, chainId] = await Promise.all([client.getBlockNumber({ cacheTime: 0 }), client.getChainId()]);
      if (chainId !== runtime.chainId) await wrongChain(chainId);
      let cursor = await readCursor();
      let reorgForkBlock: bigint | undefined;
      if (cursor) {
        // A node below the cursor is behind (failover, syncing), not a reorg: wait for it.
        const hash = cursor.number > tip ? undefined : await hashAt(cursor.number);
        if (hash === undefined) return waiting(cursor.number);
        if (hash !== cursor.hash) {
          reorgForkBlock = await rewind(tip);
          cursor = await readCursor();
        }
      }
      waitingLogged = false;
      const from = cursor ? cursor.number + 1n : options.startBlock === 'tip' ? tip : options.startBlock;
      let to = from + batch - 1n;
      if (to > tip) to = tip;
      let observed = 0;
      let scannedTo = cursor?.number ?? null;
      if (from <= to) {
        const blocks = linkedPrefix(await fetchBlocks(from, to), cursor?.hash);
        const last = blocks.at(-1);
        if (last) {
          const transfers = await observeTransfers(
            {
              db,
              client,
              network,
              tokens: runtime.tokens,
              traceInternal: await traceInternal(),
              watched: await watchedTopics(),
            },
            blocks,
          );
          const events = await observerLogs(blocks);
          observed = await recordScan(blocks, transfers, events);
          scannedTo = last.number as bigint;
        }
      }
      let credited = scannedTo === null ? 0 : await advanceConfirmations(db, network, scannedTo, now());
      if (scannedTo !== null) for (const o of observers) credited += await o.confirm(db, scannedTo, now());
      // Untraced internal transfers: caught up, compare deposit addresses' balances with the books.
      if (scannedTo !== null && scannedTo >= tip && !(await traceInternal())) {
        try {
          await balanceCheck(scannedTo);
        } catch (err) {
          log('unexplained-balance check failed (retried next tick)', { network, error: String(err) });
        }
      }
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
