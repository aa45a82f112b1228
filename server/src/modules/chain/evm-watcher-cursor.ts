import type { Kysely } from 'kysely';
import { BlockNotFoundError, type Hash, type PublicClient } from 'viem';
import type { Database } from '../../db/schema.ts';
import { raiseChainAlert } from '../deposits/chain-alerts.ts';
import { dropAboveFork } from '../deposits/processor.ts';
import type { EvmChainRuntime } from './chain-config.ts';
import type { EvmLogObserver, WatcherFence } from './watcher.ts';

/** Block hashes kept per network for finding a fork point (deeper than any confirmation count). */
export const KEEP_BLOCK_HASHES = 512;

/** What a watcher's steps share (evm-watcher.ts builds it from EvmWatcherOptions). */
export interface WatcherContext {
  db: Kysely<Database>;
  client: PublicClient;
  network: EvmChainRuntime['network'];
  now: () => Date;
  log: (msg: string, details?: Record<string, unknown>) => void;
  observers: readonly EvmLogObserver[];
  fence: WatcherFence | undefined;
}

/** No stored block hash is on the node's chain: the watcher stops rather than skip blocks (chain alert raised). */
export class ForkNotFoundError extends Error {
  constructor(network: string, tip: bigint) {
    super(`${network}: no stored block hash is on the node's chain (tip ${tip}); watcher halted, see chain alerts`);
  }
}

/**
 * The watcher's cursor (number + hash, in the DB) checked against the node, and the rewind to the fork
 * point when it no longer matches (a reorg).
 */
export function createEvmCursor(ctx: WatcherContext) {
  const { db, client, network, now, log, observers } = ctx;

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
        await ctx.fence?.(trx);
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
      await ctx.fence?.(trx);
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

  return { readCursor, hashAt, rewind };
}
