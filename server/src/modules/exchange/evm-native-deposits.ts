import type { Kysely } from 'kysely';
import { type Block, getAddress, type Hash, type PublicClient } from 'viem';
import type { Database } from '../../db/schema.ts';
import { coinNetworks, nativeCoinOf, toChainUnits, toLedgerMinor } from '../catalogue/catalogue.ts';
import type { EvmNetwork } from '../catalogue/chains-file.ts';
import type { EvmChainRuntime } from '../chain/chain-config.ts';
import { linkedPrefix } from '../chain/evm-watcher.ts';
import type { ObservedOrderDeposit, ObservedTransfer } from './engine.ts';
import { LATE_DEPOSIT_WATCH_MS, lateWatchSince } from './pricing.ts';

/**
 * Native-coin deposits (ETH on ethereum, BNB on bsc) to exchange order addresses. A native transfer
 * leaves no log, so blocks are read: from a cursor stored in `exchange_deposit_cursors` (number +
 * hash), each block's transactions to the deposit address of an order paid in the native coin,
 * successful receipts only, are stored in `exchange_native_deposits` together with the cursor in one
 * transaction. A restart resumes at the cursor; a stored row is keyed by its transaction, so reading a
 * block twice records nothing twice. Confirmations are counted at read time, tip - block + 1, and only
 * while the chain still has the row's block hash (a reorged row is unseen; the rescan finds it again).
 *
 * Same building blocks as the wallet's watcher (`chain/evm-watcher.ts`): its viem client, its linked
 * block prefix check; its own cursor, because it looks for other addresses (branch 2, not deposit_addresses).
 */

/** Blocks read per batch, and batches per refresh: bounded work per engine tick. */
const BATCH_BLOCKS = 50n;
const MAX_BATCHES_PER_REFRESH = 10;
/** A cursor the chain no longer has: rescan this far back (deeper than any catalogue confirmation count). */
const REORG_REWIND_BLOCKS = 128n;
/** Where a network without a cursor starts when orders are already open. */
const FIRST_RUN_LOOKBACK_BLOCKS = 1000n;
/** Rows looked at per order address (a user may send several times; the first valid one counts). */
const MAX_ROWS_PER_ADDRESS = 20;

const maxConfirmations = Math.max(...coinNetworks.map((p) => p.confirmations));
if (BigInt(maxConfirmations) >= REORG_REWIND_BLOCKS)
  throw new Error('reorg rewind must exceed every confirmation count');

type FullBlock = Block<bigint, true, 'latest'>;

export interface NativeOrderDeposits {
  /** Reads the blocks since the cursor of each running EVM network. */
  refresh(): Promise<void>;
  /** The block time of the scanner's cursor (every native transfer up to it is stored), or null before its first read. */
  headTime(network: EvmNetwork): Promise<Date | null>;
  /** Every native transfer to `address` still on the chain (bounded), oldest first. */
  transfers(network: EvmNetwork, address: string): Promise<ObservedTransfer[]>;
  /** The first native transfer to `address` still on the chain, or null. */
  observe(network: EvmNetwork, address: string): Promise<ObservedOrderDeposit | null>;
}

export function evmNativeOrderDeposits(options: {
  db: Kysely<Database>;
  chains: () => Partial<Record<EvmNetwork, EvmChainRuntime | undefined>>;
  clientFor: (runtime: EvmChainRuntime) => PublicClient;
  now?: () => Date;
  /** Expired orders are looked for this long after their deadline (LATE_DEPOSIT_WATCH_MS). */
  lateDepositWatchMs?: number;
}): NativeOrderDeposits {
  const { db, chains, clientFor } = options;
  const now = options.now ?? (() => new Date());
  const lateWatchMs = options.lateDepositWatchMs ?? LATE_DEPOSIT_WATCH_MS;

  async function hashAt(client: PublicClient, n: bigint): Promise<string | undefined> {
    try {
      return (await client.getBlock({ blockNumber: n })).hash ?? undefined;
    } catch {
      return undefined; // above the tip after the chain got shorter
    }
  }

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
      const hash = await hashAt(client, tip);
      if (hash) await saveCursor(network, tip, hash);
      return false;
    }
    if (!cursor) {
      // First run with open orders: start a bounded way back.
      const back = tip - FIRST_RUN_LOOKBACK_BLOCKS;
      const n = back > 0n ? back : 0n;
      const hash = await hashAt(client, n);
      if (!hash) return false;
      await saveCursor(network, n, hash);
      cursor = { number: n, hash };
    }
    if (cursor.number > tip || (await hashAt(client, cursor.number)) !== cursor.hash) {
      const back = (cursor.number < tip ? cursor.number : tip) - REORG_REWIND_BLOCKS;
      const n = back > 0n ? back : 0n;
      const hash = await hashAt(client, n);
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
    const found: typeof candidates = [];
    for (const c of candidates) {
      if (!orderAddresses.has(c.to)) continue;
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

    async transfers(network, address) {
      const runtime = chains()[network];
      if (!runtime) return [];
      const client = clientFor(runtime);
      const dustBelow = toChainUnits(nativeCoinOf(network), network, 1n).toString();
      // Bounded, so it pages past what no step needs: dust, and transfers already booked as extra
      // deposits (20 tiny transfers must not hide the ones behind them for ever).
      const rows = await db
        .selectFrom('exchange_native_deposits as n')
        .selectAll('n')
        .where('n.network', '=', network)
        .where('n.to_address', '=', getAddress(address))
        .where('n.chain_amount', '>=', dustBelow)
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('exchange_extra_deposits as e')
                .select('e.id')
                .whereRef('e.network', '=', 'n.network')
                .whereRef('e.tx_hash', '=', 'n.tx_hash')
                .where('e.log_index', '=', -1),
            ),
          ),
        )
        .orderBy('n.block_number')
        .orderBy('n.tx_index')
        .limit(MAX_ROWS_PER_ADDRESS)
        .execute();
      if (rows.length === 0) return [];
      const tip = await client.getBlockNumber({ cacheTime: 0 });
      const found: ObservedTransfer[] = [];
      for (const row of rows) {
        const n = BigInt(row.block_number);
        if (n > tip || (await hashAt(client, n)) !== row.block_hash) continue; // reorged away
        const coin = nativeCoinOf(network);
        found.push({
          coin,
          txHash: row.tx_hash,
          logIndex: -1,
          amountMinor: toLedgerMinor(coin, network, BigInt(row.chain_amount)),
          confirmations: Number(tip - n + 1n),
          blockNumber: n,
        });
      }
      return found;
    },

    async headTime(network) {
      const runtime = chains()[network];
      if (!runtime) return null;
      const cursor = await db
        .selectFrom('exchange_deposit_cursors')
        .select('block_hash')
        .where('network', '=', network)
        .executeTakeFirst();
      if (!cursor) return null;
      try {
        const block = await clientFor(runtime).getBlock({ blockHash: cursor.block_hash as Hash });
        return new Date(Number(block.timestamp) * 1000);
      } catch {
        return null; // the cursor's block left the chain: the next refresh rewinds it
      }
    },

    async observe(network, address) {
      const runtime = chains()[network];
      if (!runtime) return null;
      const client = clientFor(runtime);
      const rows = await db
        .selectFrom('exchange_native_deposits')
        .selectAll()
        .where('network', '=', network)
        .where('to_address', '=', getAddress(address))
        .orderBy('block_number')
        .orderBy('tx_index')
        .limit(MAX_ROWS_PER_ADDRESS)
        .execute();
      if (rows.length === 0) return null;
      const tip = await client.getBlockNumber({ cacheTime: 0 });
      for (const row of rows) {
        const n = BigInt(row.block_number);
        const amountMinor = toLedgerMinor(nativeCoinOf(network), network, BigInt(row.chain_amount));
        if (amountMinor <= 0n) continue; // dust below the ledger's unit: not the order's deposit
        if (n > tip || (await hashAt(client, n)) !== row.block_hash) continue; // reorged away
        return {
          txHash: row.tx_hash,
          amountMinor,
          confirmations: Number(tip - n + 1n),
          blockTime: row.block_time,
          logIndex: -1,
        };
      }
      return null;
    },
  };
}
