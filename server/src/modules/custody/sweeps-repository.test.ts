import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createUser } from '../../test/app.ts';
import { useTestDatabase } from '../../test/database.ts';
import type { CoinCode } from '../catalogue/catalogue.ts';
import { creditDeposit } from '../ledger/operations.ts';
import { bookedNativeOf, sweepCandidates } from './sweeps-repository.ts';

/**
 * Which deposit addresses are swept (issue 36, item 6): a native sweep's own gas is not a phantom
 * amount left to sweep, and coins of different decimals do not starve each other of the round's slots.
 */
const database = useTestDatabase();
const at = new Date('2030-01-02T03:04:05.000Z');
const ETH = 10n ** 18n;
const GWEI = 10n ** 9n;
const minimums = new Map<CoinCode, bigint>([
  ['ETH', 10n ** 15n],
  ['USDT', 1000n],
]);
let n = 0;

async function address(): Promise<string> {
  n += 1;
  const a = `0x${n.toString(16).padStart(40, 'e')}`;
  await database.db
    .insertInto('deposit_addresses')
    .values({ user_id: await createUser(database.db), network: 'ethereum', address: a, derivation_index: 10_000 + n })
    .execute();
  return a;
}

async function credit(to: string, coin: CoinCode, chainAmount: bigint) {
  n += 1;
  const userId = await createUser(database.db);
  const txHash = `0x${n.toString(16).padStart(64, '0')}`;
  const credited = await database.db
    .transaction()
    .execute((trx) =>
      creditDeposit(trx, { idempotencyKey: `deposit:ethereum:${txHash}:0`, userId, asset: coin, amountMinor: 1n }, at),
    );
  const row = await database.db
    .insertInto('deposits')
    .values({
      user_id: userId,
      network: 'ethereum',
      coin,
      tx_hash: txHash,
      output_index: 0,
      from_address: null,
      to_address: to,
      chain_amount: chainAmount.toString(),
      amount_minor: chainAmount.toString(),
      block_number: '1',
      block_hash: `0x${'cd'.repeat(32)}`,
      required_confirmations: 6,
      state: 'successful',
      credited_transfer_id: credited.transfer.id,
      created_at: at,
      updated_at: at,
      completed_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  // Booked into custody (the id only marks it booked here).
  await sql`update deposits set custody_transfer_id = ${credited.transfer.id} where id = ${row.id}`.execute(
    database.db,
  );
}

async function sweep(from: string, coin: CoinCode, chainAmount: bigint, kind: 'sweep' | 'gas_topup', feeWei: bigint) {
  n += 1;
  await database.db
    .insertInto('sweep_transactions')
    .values({
      kind,
      network: 'ethereum',
      chain_id: '31337',
      coin,
      deposit_address: from,
      from_address: kind === 'sweep' ? from : '0xhot',
      to_address: kind === 'sweep' ? '0xhot' : from,
      chain_amount: chainAmount.toString(),
      nonce: String(n),
      gas_limit: '21000',
      gas_price_wei: (feeWei / 21_000n || 1n).toString(),
      tx_hash: `0x${n.toString(16).padStart(64, 'f')}`,
      raw_tx: '0x',
      state: 'mined',
      block_number: '2',
      fee_wei: feeWei.toString(),
      created_at: at,
      updated_at: at,
    })
    .execute();
}

describe('sweep candidates', () => {
  it('a native sweep that paid 60 gwei gas leaves no phantom amount to sweep; the booked native coin is exact', async () => {
    const a = await address();
    const fee = 21_000n * 60n * GWEI; // 1.26e15 wei: above the 0.001 ETH minimum
    await credit(a, 'ETH', ETH);
    await sweep(a, 'ETH', ETH - fee, 'sweep', fee);
    const listed = await sweepCandidates(database.db, 'ethereum', minimums, 100);
    expect(listed.filter((c) => c.address === a)).toEqual([]);
    expect(await bookedNativeOf(database.db, 'ethereum', a)).toBe(0n);
    await sweep(a, 'ETH', 5n * 10n ** 14n, 'gas_topup', 0n);
    expect(await bookedNativeOf(database.db, 'ethereum', a)).toBe(5n * 10n ** 14n);
  });

  it('ranks candidates within each coin: 20 large native amounts do not starve a token sweep', async () => {
    for (let i = 0; i < 20; i++) await credit(await address(), 'ETH', ETH + BigInt(i));
    const token = await address();
    await credit(token, 'USDT', 500n * 10n ** 6n);
    const listed = await sweepCandidates(database.db, 'ethereum', minimums, 20);
    expect(listed).toHaveLength(20);
    expect(listed.some((c) => c.address === token && c.coin === 'USDT')).toBe(true);
  });
});
