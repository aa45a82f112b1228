import { type Kysely, sql } from 'kysely';
import { getAddress, type Hash, type PublicClient } from 'viem';
import type { Database } from '../../db/schema.ts';
import { nativeCoinOf, toChainUnits, toLedgerMinor } from '../catalogue/catalogue.ts';
import type { EvmNetwork } from '../catalogue/chains-file.ts';
import type { EvmChainRuntime } from '../chain/chain-config.ts';
import type { ObservedOrderDeposit, ObservedTransfer } from './engine.ts';
import { blockHashAt, evmNativeScanner } from './evm-native-scan.ts';
import { LATE_DEPOSIT_WATCH_MS } from './pricing.ts';

/**
 * Native-coin deposits (ETH on ethereum, BNB on bsc) to exchange order addresses, as the block scanner
 * (evm-native-scan.ts) stored them in `exchange_native_deposits`. Confirmations are counted at read time,
 * tip - block + 1, and only while the chain still has the row's block hash (a reorged row is unseen; the
 * rescan finds it again).
 */

/** Rows looked at per order address (a user may send several times; the first valid one counts). */
const MAX_ROWS_PER_ADDRESS = 20;

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

/**
 * A stored native transfer that is one of our own gas top-ups or sweeps (first signing or replacement)
 * is never an order's deposit. The scanner skips them already; this also drops the ones a scanner that
 * did not (an older API beside a newer signer) stored before (review 37b, finding 5).
 */
const notOurTopUp = sql<boolean>`not exists (select 1 from sweep_transactions s where s.tx_hash = n.tx_hash)
  and not exists (select 1 from sweep_attempts a where a.tx_hash = n.tx_hash)`;

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

  const scanner = evmNativeScanner({ db, chains, clientFor, now, lateWatchMs });

  return {
    refresh: () => scanner.refresh(),

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
        .where(notOurTopUp)
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
        if (n > tip || (await blockHashAt(client, n)) !== row.block_hash) continue; // reorged away
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
        .selectFrom('exchange_native_deposits as n')
        .selectAll('n')
        .where('n.network', '=', network)
        .where('n.to_address', '=', getAddress(address))
        .where(notOurTopUp)
        .orderBy('n.block_number')
        .orderBy('n.tx_index')
        .limit(MAX_ROWS_PER_ADDRESS)
        .execute();
      if (rows.length === 0) return null;
      const tip = await client.getBlockNumber({ cacheTime: 0 });
      for (const row of rows) {
        const n = BigInt(row.block_number);
        const amountMinor = toLedgerMinor(nativeCoinOf(network), network, BigInt(row.chain_amount));
        if (amountMinor <= 0n) continue; // dust below the ledger's unit: not the order's deposit
        if (n > tip || (await blockHashAt(client, n)) !== row.block_hash) continue; // reorged away
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
