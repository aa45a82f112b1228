import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { NetworkCode } from '../catalogue/catalogue.ts';
import { depositAddressesPage } from '../deposits/addresses.ts';
import { advanceConfirmations, depositsToRecheck, dropAboveFork, recordedTxHashes } from '../deposits/processor.ts';
import { recordObserved } from '../deposits/record-observed.ts';
import { type HistoryCursor, type HistoryUpdate, loadHistoryCursor, saveHistoryUpdates } from './address-history.ts';
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
   * Confirmed transfers to this deposit address, each listing read with `readHistory` (address-history.ts):
   * newest first, page after page until a page holds a recorded transaction, or on from where the last
   * read stopped at the page cap; spam ("address poisoning") and floods cannot push a deposit out of reach.
   */
  transfersTo(
    address: string,
    cursor: HistoryCursor,
  ): Promise<{ transfers: ObservedTransfer[]; history: HistoryUpdate[] }>;
  /** The node's hash at a height, never from a cache; undefined only when it has no such block (errors throw). */
  blockHashAt(height: bigint): Promise<string | undefined>;
}

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
      const reads: { address: string; history: HistoryUpdate[] }[] = [];
      for (const { address } of batch) {
        const cursor = await loadHistoryCursor(db, network, address, (hashes) =>
          recordedTxHashes(db, network, address, hashes),
        );
        const read = await source.transfersTo(address, cursor);
        let aboveTip = false;
        for (const t of read.transfers) {
          // Only what the indexer's tip covers; a later block is seen on the next tick.
          if (t.toAddress !== address) continue;
          if (t.blockNumber <= tip.height) transfers.push(t);
          else aboveTip = true;
        }
        // A transfer left for the next tick: the read state is not moved past it (read again the same way).
        if (!aboveTip) reads.push({ address, history: read.history });
      }
      const at = now();
      const observed = await db.transaction().execute(async (trx) => {
        await options.fence?.(trx);
        const n = await recordObserved(trx, transfers, at);
        for (const r of reads) await saveHistoryUpdates(trx, network, r.address, r.history, at);
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
