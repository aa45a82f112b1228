import type { Kysely } from 'kysely';
import type { PublicClient } from 'viem';
import type { Database } from '../../db/schema.ts';
import { raiseChainAlert } from '../deposits/chain-alerts.ts';
import { advanceConfirmations } from '../deposits/processor.ts';
import type { EvmChainRuntime } from './chain-config.ts';
import { createUnexplainedBalanceCheck } from './evm-balance-check.ts';
import { createEvmClient } from './evm-client.ts';
import { tracingSwitch } from './evm-internal.ts';
import { createWatchedTopics, observeTransfers } from './evm-transfers.ts';
import { createEvmCursor } from './evm-watcher-cursor.ts';
import { createEvmScan, linkedPrefix } from './evm-watcher-scan.ts';
import type { ChainWatcher, EvmLogObserver, TickReport, WatcherFence } from './watcher.ts';

export { ForkNotFoundError } from './evm-watcher-cursor.ts';
export { linkedPrefix } from './evm-watcher-scan.ts';

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
  const ctx = { db, client, network, now, log, observers, fence: options.fence };
  const { readCursor, hashAt, rewind } = createEvmCursor(ctx);
  const { fetchBlocks, observerLogs, recordScan } = createEvmScan(ctx);
  const traceInternal = tracingSwitch(client, runtime.traceInternal === true, () =>
    log(
      'WARNING: internal-call tracing is configured but the node has no debug API; not tracing, checking deposit addresses for unexplained native balance instead',
      { network },
    ),
  );

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
