import type { Kysely } from 'kysely';
import { type Block, getAddress, type Hash, type PublicClient } from 'viem';
import type { Database } from '../../db/schema.ts';
import { coinNetworks, nativeCoinOf } from '../catalogue/catalogue.ts';
import type { EvmNetwork } from '../catalogue/chains-file.ts';
import type { EvmChainRuntime } from '../chain/chain-config.ts';
import { linkedPrefix } from '../chain/evm-watcher.ts';
import { sweepTransactionHashes } from '../custody/sweeps-repository.ts';
import { lateWatchSince } from './pricing.ts';

/**
 * The native-coin block scanner of exchange order addresses (evm-native-deposits.ts reads what it
 * stores): from a cursor in `exchange_deposit_cursors` (number + hash), each block's successful
 * transactions with value to an order address go into `exchange_native_deposits` with the cursor in one
 * transaction. A restart resumes at the cursor; a row is keyed by its transaction (a block read twice
 * records nothing twice; a transaction re-mined after a reorg moves its row). The platform's own
 * transactions to an order address (gas top-ups before a sweep, anything from the hot wallet) are skipped.
 */

/** Blocks read per batch, and batches per refresh: bounded work per engine tick. */
const BATCH_BLOCKS = 50n;
const MAX_BATCHES_PER_REFRESH = 10;
/** A cursor the chain no longer has: rescan this far back (deeper than any catalogue confirmation count). */
const REORG_REWIND_BLOCKS = 128n;
/** Where a network without a cursor starts when orders are already open. */
const FIRST_RUN_LOOKBACK_BLOCKS = 1000n;

const maxConfirmations = Math.max(...coinNetworks.map((p) => p.confirmations));
if (BigInt(maxConfirmations) >= REORG_REWIND_BLOCKS)
  throw new Error('reorg rewind must exceed every confirmation count');

type FullBlock = Block<bigint, true, 'latest'>;

/** The hash of block `n`, or undefined above the tip (after the chain got shorter). */
export async function blockHashAt(client: PublicClient, n: bigint): Promise<string | undefined> {
  try {
    return (await client.getBlock({ blockNumber: n })).hash ?? undefined;
  } catch {
    return undefined;
  }
}

/** The network's hot wallet address as the custody book opened it (checksummed), if it was. */
async function hotWalletOf(db: Kysely<Database>, network: EvmNetwork): Promise<string | undefined> {
  const row = await db
    .selectFrom('custody_openings')
    .select('address')
    .where('network', '=', network)
    .executeTakeFirst();
  return row ? getAddress(row.address) : undefined;
}

export function evmNativeScanner(options: {
  db: Kysely<Database>;
  chains: () => Partial<Record<EvmNetwork, EvmChainRuntime | undefined>>;
  clientFor: (runtime: EvmChainRuntime) => PublicClient;
  now: () => Date;
  lateWatchMs: number;
}): { refresh(): Promise<void> } {
  const { db, chains, clientFor, now, lateWatchMs } = options;

  async function saveCursor(network: EvmNetwork, number: bigint, hash: string, trx: Kysely<Database> = db) {
    const values = { block_number: number.toString(), block_hash: hash, updated_at: now() };
    await trx
      .insertInto('exchange_deposit_cursors')
      .values({ network, ...values })
      .onConflict((oc) => oc.column('network').doUpdateSet(values))
      .execute();
  }

  /**
   * Orders of this network whose address may still receive (any order until its late-deposit watch
   * ends), or paid in its native coin and whose deposit may still come or move (a reorg can
   * put a confirming order's deposit into another block): the engine still reads their deposit.
   */
  async function hasOpenOrders(network: EvmNetwork): Promise<boolean> {
    const row = await db
      .selectFrom('exchange_orders')
      .select('id')
      .where('send_network', '=', network)
      .where('deposit_address', 'is not', null)
      .where((eb) =>
        eb.or([
          // Any order's address is watched until its late-deposit watch ends (engine-extra-deposits.ts).
          eb('deadline_at', '>', lateWatchSince(now(), lateWatchMs)),
          eb.and([eb('send_coin', '=', nativeCoinOf(network)), eb('state', 'in', ['waiting', 'confirming'])]),
          eb.and([
            eb('send_coin', '=', nativeCoinOf(network)),
            eb('state', '=', 'expired'),
            eb('deposit_confirmed_at', 'is', null),
            // A late deposit already seen is followed to its confirmations; an empty address only for the watch.
            eb.or([eb('deposit_tx_hash', 'is not', null), eb('deadline_at', '>', lateWatchSince(now(), lateWatchMs))]),
          ]),
        ]),
      )
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Reads one batch after the cursor; returns true while behind the tip. */
  async function scanBatch(network: EvmNetwork, client: PublicClient, tip: bigint): Promise<boolean> {
    const row = await db
      .selectFrom('exchange_deposit_cursors')
      .selectAll()
      .where('network', '=', network)
      .executeTakeFirst();
    let cursor = row ? { number: BigInt(row.block_number), hash: row.block_hash } : undefined;
    if (!(await hasOpenOrders(network))) {
      // Nothing to look for: jump to the tip (read before the check, so an order placed after the
      // check cannot have been paid in a block at or below it).
      const hash = await blockHashAt(client, tip);
      if (hash) await saveCursor(network, tip, hash);
      return false;
    }
    if (!cursor) {
      // First run with open orders: start a bounded way back.
      const back = tip - FIRST_RUN_LOOKBACK_BLOCKS;
      const n = back > 0n ? back : 0n;
      const hash = await blockHashAt(client, n);
      if (!hash) return false;
      await saveCursor(network, n, hash);
      cursor = { number: n, hash };
    }
    if (cursor.number > tip || (await blockHashAt(client, cursor.number)) !== cursor.hash) {
      const back = (cursor.number < tip ? cursor.number : tip) - REORG_REWIND_BLOCKS;
      const n = back > 0n ? back : 0n;
      const hash = await blockHashAt(client, n);
      if (!hash) return false;
      await saveCursor(network, n, hash);
      cursor = { number: n, hash };
    }
    const from = cursor.number + 1n;
    const to = from + BATCH_BLOCKS - 1n < tip ? from + BATCH_BLOCKS - 1n : tip;
    if (from > to) return false;
    const numbers: bigint[] = [];
    for (let n = from; n <= to; n++) numbers.push(n);
    const fetched = await Promise.all(
      numbers.map((n) => client.getBlock({ blockNumber: n, includeTransactions: true }) as Promise<FullBlock>),
    );
    const blocks = linkedPrefix(fetched, cursor.hash);
    const last = blocks.at(-1);
    if (!last) {
      // The first block does not follow the cursor: the chain changed under it; re-check next time.
      return false;
    }
    const candidates = blocks.flatMap((b) =>
      b.transactions
        .filter((tx) => tx.to && tx.value > 0n)
        .map((tx) => ({ tx, block: b, to: getAddress(tx.to as string) })),
    );
    const addresses = [...new Set(candidates.map((c) => c.to))];
    const orderAddresses = new Set<string>();
    // Bounded IN lists: a block can hold thousands of transfers.
    for (let i = 0; i < addresses.length; i += 500) {
      // Any order's address, whatever its send coin: a native transfer to a token order is a late deposit.
      const rows = await db
        .selectFrom('exchange_orders')
        .select('deposit_address')
        .where('send_network', '=', network)
        .where('deposit_address', 'in', addresses.slice(i, i + 500))
        .execute();
      for (const r of rows) if (r.deposit_address) orderAddresses.add(r.deposit_address);
    }
    // Our own gas top-ups (recorded in sweep_transactions before their broadcast) and anything else the
    // hot wallet sends are the platform's coins, never a user's deposit or extra deposit (issue 37 item 2).
    const toOrders = candidates.filter((c) => orderAddresses.has(c.to));
    const ours = await sweepTransactionHashes(
      db,
      toOrders.map((c) => c.tx.hash.toLowerCase()),
    );
    const hot = await hotWalletOf(db, network);
    const found: typeof candidates = [];
    for (const c of toOrders) {
      if (ours.has(c.tx.hash.toLowerCase()) || (hot !== undefined && getAddress(c.tx.from) === hot)) continue;
      // A reverted transaction still carries its value field: only successful ones moved coins.
      const receipt = await client.getTransactionReceipt({ hash: c.tx.hash as Hash });
      if (receipt.status !== 'success') continue;
      found.push(c);
    }
    await db.transaction().execute(async (trx) => {
      for (const { tx, block, to } of found) {
        const values = {
          block_number: (block.number as bigint).toString(),
          block_hash: block.hash as string,
          tx_index: tx.transactionIndex ?? 0,
          block_time: new Date(Number(block.timestamp) * 1000),
        };
        await trx
          .insertInto('exchange_native_deposits')
          .values({
            network,
            tx_hash: tx.hash.toLowerCase(),
            to_address: to,
            chain_amount: tx.value.toString(),
            ...values,
          })
          // Seen again after a reorg moved it to another block: the chain's latest word counts.
          .onConflict((oc) => oc.columns(['network', 'tx_hash']).doUpdateSet(values))
          .execute();
      }
      await saveCursor(network, last.number as bigint, last.hash as string, trx);
    });
    return (last.number as bigint) < tip;
  }

  return {
    async refresh() {
      const running = chains();
      for (const network of ['ethereum', 'bsc'] as const) {
        const runtime = running[network];
        if (!runtime) continue;
        const client = clientFor(runtime);
        // No cached tip (viem caches it for its polling interval).
        const tip = await client.getBlockNumber({ cacheTime: 0 });
        for (let i = 0; i < MAX_BATCHES_PER_REFRESH; i++) {
          if (!(await scanBatch(network, client, tip))) break;
        }
      }
    },
  };
}
