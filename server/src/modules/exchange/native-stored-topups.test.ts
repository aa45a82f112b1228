import type { PublicClient } from 'viem';
import { describe, expect, it } from 'vitest';
import { useTestDatabase } from '../../test/database.ts';
import type { EvmChainRuntime } from '../chain/chain-config.ts';
import { evmNativeOrderDeposits } from './evm-native-deposits.ts';
import { EVM_ADDRESS_A } from './test-helpers.ts';

/**
 * Our own gas top-ups (first signings and replacements) are never an order's native deposit, also
 * when a scanner that did not skip them (an older API beside a newer signer) already stored them: they
 * are filtered when the stored rows are read, not only while scanning (review 37b, finding 5).
 */
const database = useTestDatabase();
const TIP = 100n;
const hashOf = (n: bigint) => `0x${n.toString(16).padStart(64, '0')}`;
const client = {
  getBlockNumber: async () => TIP,
  getBlock: async ({ blockNumber }: { blockNumber: bigint }) => ({ hash: hashOf(blockNumber) }),
} as unknown as PublicClient;
const ETH = 10n ** 18n;

describe('native order deposits: stored top-ups are not deposits', () => {
  it('transfers() and observe() leave out rows whose hash is one of our top-ups or its replacements', async () => {
    const db = database.db;
    const topUp = hashOf(1001n);
    const replacement = hashOf(1002n);
    const deposit = hashOf(1003n);
    await db
      .insertInto('exchange_native_deposits')
      .values(
        [topUp, replacement, deposit].map((tx_hash, i) => ({
          network: 'ethereum' as const,
          tx_hash,
          to_address: EVM_ADDRESS_A,
          chain_amount: (ETH / 100n).toString(),
          block_number: (10 + i).toString(),
          block_hash: hashOf(BigInt(10 + i)),
          tx_index: 0,
          block_time: new Date('2030-01-02T03:04:05.000Z'),
        })),
      )
      .execute();
    const at = new Date();
    const sweep = await db
      .insertInto('sweep_transactions')
      .values({
        kind: 'gas_topup',
        network: 'ethereum',
        chain_id: '31337',
        coin: 'ETH',
        deposit_address: EVM_ADDRESS_A,
        from_address: '0x00000000000000000000000000000000000000aa',
        to_address: EVM_ADDRESS_A,
        chain_amount: (ETH / 100n).toString(),
        nonce: '0',
        gas_limit: '21000',
        gas_price_wei: '1',
        tx_hash: topUp,
        raw_tx: '0x00',
        state: 'mined',
        last_error: null,
        block_number: '10',
        fee_wei: '21000',
        custody_transfer_id: null,
        broadcast_at: at,
        mined_tx_hash: topUp,
        created_at: at,
        updated_at: at,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('sweep_attempts')
      .values({
        sweep_id: sweep.id,
        attempt: 1,
        chain_amount: (ETH / 100n).toString(),
        gas_price_wei: '2',
        tx_hash: replacement,
        raw_tx: '0x01',
        last_error: null,
        broadcast_at: at,
        created_at: at,
        updated_at: at,
      })
      .execute();
    const native = evmNativeOrderDeposits({
      db,
      chains: () => ({ ethereum: {} as EvmChainRuntime }),
      clientFor: () => client,
    });
    expect((await native.transfers('ethereum', EVM_ADDRESS_A)).map((t) => t.txHash)).toEqual([deposit]);
    expect((await native.observe('ethereum', EVM_ADDRESS_A))?.txHash).toBe(deposit);
  }, 60_000);
});
