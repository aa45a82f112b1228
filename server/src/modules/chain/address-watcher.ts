import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { NetworkCode } from '../catalogue/catalogue.ts';
import { depositAddressesPage } from '../deposits/addresses.ts';
import { advanceConfirmations, depositsToRecheck, dropAboveFork, recordedTxHashes } from '../deposits/processor.ts';
import { recordObserved } from '../deposits/record-observed.ts';
import type { ChainWatcher, ObservedTransfer, TickReport, WatcherFence } from './watcher.ts';

/**
 * Watcher for chains read through an indexer by ADDRESS (TronGrid, Esplora) rather than block by
 * block: each tick asks for the recent confirmed transfers of a bounded batch of deposit addresses
 * (rotating through all of them), records them, re-checks the block hashes of unconfirmed
 * deposits and of recently credited ones (a mismatch is a reorg: unconfirmed deposits above it are
 * dropped until seen again, credited ones raise a deep-reorg alert), and counts confirmations from
 * the indexer's tip. Each deposit's block hash is asked again, uncached, in the transaction that
 * credits it. The tip (number + hash) is stored as the cursor.
 */
export interface AddressSource {
  tip(): Promise<{ height: bigint; hash: string }>;
  /**
   * Confirmed transfers to this deposit address, newest first, page after page until a page holds a
   * transaction `recorded` knows (everything older was read before) or MAX_HISTORY_PAGES: spam
   * ("address poisoning") cannot push a real deposit off the first page.
   */
  transfersTo(address: string, recorded: RecordedCheck): Promise<ObservedTransfer[]>;
  /** The node's hash at a height, never from a cache; undefined only when it has no such block (errors throw). */
  blockHashAt(height: bigint): Promise<string | undefined>;
}

/** Which of these transaction hashes are recorded deposits of the address. */
export type RecordedCheck = (txHashes: readonly string[]) => Promise<Set<string>>;

/** Pages of one address's history read per tick at most (a first scan of a busy address spreads over ticks' re-reads). */
export const MAX_HISTORY_PAGES = 40;

export interface AddressWatcherOptions {
  db: Kysely<Database>;
  network: NetworkCode;
  source: AddressSource;
  addressesPerTick?: number;
  now?: () => Date;
  /** Fences the watcher's recording transaction when it runs under a lease. */
  fence?: WatcherFence;
}

const DEFAULT_ADDRESSES_PER_TICK = 20;

export function createAddressWatcher(options: AddressWatcherOptions): ChainWatcher {
  const { db, network, source } = options;
  const now = options.now ?? (() => new Date());
  const perTick = options.addressesPerTick ?? DEFAULT_ADDRESSES_PER_TICK;
  /** Rotation through deposit_addresses by id; restarts at 0 after a full pass. */
  let afterId = '0';

  async function checkReorg(tip: bigint): Promise<bigint | undefined> {
    for (const d of await depositsToRecheck(db, network, tip)) {
      const height = BigInt(d.block_number);
      const hash = await source.blockHashAt(height);
      if (hash !== undefined && hash !== d.block_hash) {
        await db.transaction().execute(async (trx) => {
          await options.fence?.(trx);
          await dropAboveFork(trx, network, height - 1n, now());
        });
        return height - 1n;
      }
    }
    return undefined;
  }

  return {
    network,
    async tick(): Promise<TickReport> {
      const tip = await source.tip();
      const reorgForkBlock = await checkReorg(tip.height);
      const batch = await depositAddressesPage(db, network, afterId, perTick);
      const transfers: ObservedTransfer[] = [];
      for (const { address } of batch) {
        const recorded: RecordedCheck = (hashes) => recordedTxHashes(db, network, address, hashes);
        for (const t of await source.transfersTo(address, recorded)) {
          // Only what the indexer's tip covers; a later block is seen on the next tick.
          if (t.toAddress === address && t.blockNumber <= tip.height) transfers.push(t);
        }
      }
      const at = now();
      const observed = await db.transaction().execute(async (trx) => {
        await options.fence?.(trx);
        const n = await recordObserved(trx, transfers, at);
        const height = tip.height.toString();
        await trx
          .insertInto('chain_cursors')
          .values({ network, block_number: height, block_hash: tip.hash, updated_at: at })
          .onConflict((oc) =>
            oc.column('network').doUpdateSet({ block_number: height, block_hash: tip.hash, updated_at: at }),
          )
          .execute();
        return n;
      });
      const full = batch.length === perTick;
      afterId = full ? (batch.at(-1)?.id ?? '0') : '0';
      const credited = await advanceConfirmations(db, network, tip.height, now(), source.blockHashAt);
      return {
        network,
        scannedTo: tip.height,
        observed,
        credited,
        ...(reorgForkBlock === undefined ? {} : { reorgForkBlock }),
        behind: full,
      };
    },
  };
}
