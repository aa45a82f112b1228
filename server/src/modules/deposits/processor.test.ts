import { describe, expect, it } from 'vitest';
import { createUser } from '../../test/app.ts';
import { useTestDatabase } from '../../test/database.ts';
import { toLedgerMinor } from '../catalogue/catalogue.ts';
import { balanceOf } from '../ledger/test-helpers.ts';
import { advanceConfirmations, depositIdempotencyKey } from './processor.ts';
import { recordObserved } from './record-observed.ts';

const NOW = new Date('2030-01-02T03:04:05.000Z');

describe('deposit processor', () => {
  const database = useTestDatabase();

  it('converts chain units to ledger units by the catalogue (USDT on bsc: 18 -> 6 decimals, floor)', () => {
    expect(toLedgerMinor('USDT', 'bsc', 1_234_567_890_123_456_789n)).toBe(1_234_567n);
    expect(toLedgerMinor('USDT', 'ethereum', 1_234_567n)).toBe(1_234_567n);
    expect(toLedgerMinor('ETH', 'ethereum', 10n ** 30n)).toBe(10n ** 30n);
    expect(() => toLedgerMinor('BTC', 'ethereum', 1n)).toThrow();
  });

  it('records only transfers to known deposit addresses, once, and credits them once at the count', async () => {
    const userId = await createUser(database.db);
    const address = '0x000000000000000000000000000000000000dEaD';
    await database.db
      .insertInto('deposit_addresses')
      .values({ user_id: userId, network: 'bsc', address, derivation_index: 9999 })
      .execute();
    const transfer = {
      network: 'bsc' as const,
      coin: 'USDT' as const,
      txHash: `0x${'aa'.repeat(32)}`,
      outputIndex: 3,
      fromAddress: null,
      toAddress: address,
      chainAmount: 5_000_000_000_000_000_001n, // 5 USDT and 1 wei-unit of dust
      blockNumber: 100n,
      blockHash: `0x${'bb'.repeat(32)}`,
    };
    const stranger = { ...transfer, toAddress: '0x1111111111111111111111111111111111111111', outputIndex: 4 };
    expect(await recordObserved(database.db, [transfer, stranger], NOW)).toBe(1);
    expect(await recordObserved(database.db, [transfer], NOW)).toBe(0);

    expect(await advanceConfirmations(database.db, 'bsc', 162n, NOW)).toBe(0); // 63 of 64
    expect(await advanceConfirmations(database.db, 'bsc', 163n, NOW)).toBe(1);
    expect(await advanceConfirmations(database.db, 'bsc', 170n, NOW)).toBe(0);
    const row = await database.db.selectFrom('deposits').selectAll().executeTakeFirstOrThrow();
    expect(row).toMatchObject({ state: 'successful', amount_minor: '5000000', chain_amount: '5000000000000000001' });
    expect(await balanceOf(database.db, 'user_available', userId, 'USDT')).toBe(5_000_000n);
    // The user's system notice was written with the credit, once (the later pass credited nothing).
    const notices = await database.db.selectFrom('user_notices').selectAll().where('user_id', '=', userId).execute();
    expect(notices).toEqual([
      expect.objectContaining({
        kind: 'deposit_credited',
        dedupe_key: `deposit:${row.id}`,
        params: { coin: 'USDT', network: 'bsc', amountMinor: '5000000', depositId: row.id },
      }),
    ]);
    const transfer_ = await database.db
      .selectFrom('ledger_transfers')
      .select('id')
      .where('idempotency_key', '=', depositIdempotencyKey('bsc', transfer.txHash, 3))
      .executeTakeFirstOrThrow();
    expect(transfer_.id).toBe(row.credited_transfer_id);
  });
});
