import type { Block, Log } from 'viem';
import { recordObserved } from '../deposits/record-observed.ts';
import { blockEventLogs } from './evm-logs.ts';
import type { FullBlock } from './evm-transfers.ts';
import { KEEP_BLOCK_HASHES, type WatcherContext } from './evm-watcher-cursor.ts';
import type { ObservedTransfer } from './watcher.ts';

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

/** The scan step of a tick: the blocks after the cursor, their observers' events, recorded with the new cursor. */
export function createEvmScan(ctx: WatcherContext) {
  const { db, client, network, now, observers } = ctx;

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
      await ctx.fence?.(trx);
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

  return { fetchBlocks, observerLogs, recordScan };
}
