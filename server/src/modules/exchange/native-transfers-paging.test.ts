import type { PublicClient } from 'viem';
import { describe, expect, it } from 'vitest';
import { createUser } from '../../test/app.ts';
import { useTestDatabase } from '../../test/database.ts';
import type { EvmChainRuntime } from '../chain/chain-config.ts';
import { evmNativeOrderDeposits } from './evm-native-deposits.ts';
import { EVM_ADDRESS_A, insertBareOrder } from './test-helpers.ts';

/**
 * Native transfers are read per address with a bound: more rows already booked (20 tiny transfers, say)
 * than that bound must not hide the transfers behind them (review of issue 37, M2).
 */
const database = useTestDatabase();
const TIP = 100n;
const hashOf = (n: bigint) => `0x${n.toString(16).padStart(64, '0')}`;
const client = {
  getBlockNumber: async () => TIP,
  getBlock: async ({ blockNumber }: { blockNumber: bigint }) => ({ hash: hashOf(blockNumber) }),
} as unknown as PublicClient;

describe('native order deposits: booked rows do not hide the rest', () => {
  it('transfers() pages past more booked rows than the per-address bound', async () => {
    const rows = [];
    for (let n = 1n; n <= 25n; n++) rows.push({ n, amount: '1' }); // 1 wei each
    rows.push({ n: 30n, amount: (10n ** 17n).toString() }); // 0.1 ETH
    await database.db
      .insertInto('exchange_native_deposits')
      .values(
        rows.map(({ n, amount }) => ({
          network: 'ethereum' as const,
          tx_hash: hashOf(1000n + n),
          to_address: EVM_ADDRESS_A,
          chain_amount: amount,
          block_number: n.toString(),
          block_hash: hashOf(n),
          tx_index: 0,
          block_time: new Date('2030-01-02T03:04:05.000Z'),
        })),
      )
      .execute();
    const native = evmNativeOrderDeposits({
      db: database.db,
      chains: () => ({ ethereum: {} as EvmChainRuntime }),
      clientFor: () => client,
    });
    // Every row but the last two was booked already (as extra deposits): the listing pages past them.
    const orderId = await insertBareOrder(database.db, await createUser(database.db), new Date());
    await database.db
      .insertInto('exchange_extra_deposits')
      .values(
        rows.slice(0, 24).map(({ n, amount }) => ({
          order_id: orderId,
          network: 'ethereum' as const,
          coin: 'ETH' as const,
          tx_hash: hashOf(1000n + n),
          log_index: -1,
          tx_position: 0,
          amount_minor: amount,
          block_number: n.toString(),
          outcome: 'to_wallet' as const,
          payout_request_id: null,
          created_at: new Date(),
        })),
      )
      .execute();
    const transfers = await native.transfers('ethereum', EVM_ADDRESS_A);
    expect(transfers.map((t) => t.txHash)).toEqual([hashOf(1025n), hashOf(1030n)]);
  }, 60_000);
});
