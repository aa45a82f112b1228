import { describe, expect, it } from 'vitest';
import { createUser } from '../../test/app.ts';
import { useTestDatabase } from '../../test/database.ts';
import { appendAudit } from '../audit/repository.ts';
import { findWithdrawal } from './repository.ts';
import { reviewFixture } from './review-test-helpers.ts';
import { riskSignals } from './risk-signals.ts';

/** Issue 32: each risk signal of the review queue from its own fixture. */
const database = useTestDatabase();
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const ADDR = '0x1111111111111111111111111111111111111111';
const OTHER = '0x2222222222222222222222222222222222222222';

async function signalsOf(id: string, at = new Date(), platform: string[] = []) {
  const w = await findWithdrawal(database.db, id);
  if (!w) throw new Error('no withdrawal');
  const has = async (_n: string, a: string) => platform.includes(a);
  return riskSignals(database.db, { has }, w, at);
}

describe('risk signals', () => {
  it('a new user with nothing behind it: first withdrawal, new address, no other users, nothing recent', async () => {
    const w = await reviewFixture(database.db, { amountMinor: 5_000_000n, address: ADDR });
    const s = await signalsOf(w.id);
    expect(s).toMatchObject({
      firstWithdrawal: true,
      paidWithdrawalsBefore: 0,
      addressPaidBefore: false,
      addressBookSavedAt: null,
      addressOtherUsers: 0,
      securityChange: null,
      newDeviceAt: null,
      withdrawn30dMinor: 0n,
      ownAddress: null,
    });
    expect(Date.now() - s.accountCreatedAt.getTime()).toBeLessThan(DAY);
  });

  it('an address paid before, saved in the address book, used by another user; the 30-day history', async () => {
    const userId = await createUser(database.db);
    const at = new Date();
    await reviewFixture(database.db, {
      userId,
      amountMinor: 7_000_000n,
      address: OTHER,
      paid: true,
      at: new Date(at.getTime() - 2 * DAY),
    });
    // Outside the 30 days: not in the sum.
    await reviewFixture(database.db, {
      userId,
      amountMinor: 1_000_000n,
      address: OTHER,
      paid: true,
      at: new Date(at.getTime() - 40 * DAY),
    });
    await reviewFixture(database.db, { amountMinor: 1_000_000n, address: OTHER }); // another user
    const savedAt = new Date(at.getTime() - 3 * DAY);
    await database.db
      .insertInto('address_book')
      .values({
        user_id: userId,
        name: 'cold',
        wallet_type: 'personal',
        network: 'ethereum',
        address: OTHER,
        remark: null,
        created_at: savedAt,
        updated_at: savedAt,
      })
      .execute();
    // A credited deposit names its ledger transfer (any one will do for the signal).
    const transfer = await database.db.selectFrom('ledger_transfers').select('id').limit(1).executeTakeFirstOrThrow();
    await database.db
      .insertInto('deposits')
      .values({
        user_id: userId,
        network: 'ethereum',
        coin: 'USDT',
        tx_hash: `0x${'a'.repeat(64)}`,
        output_index: 0,
        from_address: null,
        to_address: ADDR,
        chain_amount: '9000000',
        amount_minor: '9000000',
        block_number: 1,
        block_hash: `0x${'1'.repeat(64)}`,
        required_confirmations: 6,
        state: 'successful',
        reason: null,
        credited_transfer_id: transfer.id,
        created_at: new Date(at.getTime() - DAY),
        updated_at: at,
        completed_at: at,
      })
      .execute();
    const w = await reviewFixture(database.db, { userId, amountMinor: 3_000_000n, address: OTHER, at });
    const s = await signalsOf(w.id, at);
    expect(s).toMatchObject({
      firstWithdrawal: false,
      paidWithdrawalsBefore: 2,
      addressPaidBefore: true,
      addressOtherUsers: 1,
      withdrawn30dMinor: 7_000_000n,
      deposited30dMinor: 9_000_000n,
    });
    expect(s.addressBookSavedAt?.getTime()).toBe(savedAt.getTime());
  });

  it('a security change and a new device within 72 hours; older ones do not count', async () => {
    const userId = await createUser(database.db);
    const at = new Date();
    await appendAudit(database.db, { event: 'email_changed', at: new Date(at.getTime() - 100 * HOUR), userId });
    await appendAudit(database.db, { event: 'password_changed', at: new Date(at.getTime() - 5 * HOUR), userId });
    await appendAudit(database.db, { event: 'login_succeeded', at: new Date(at.getTime() - HOUR), userId });
    const seen = new Date(at.getTime() - 10 * HOUR);
    await database.db
      .insertInto('known_devices')
      .values({
        user_id: userId,
        device_hash: Buffer.alloc(32, 7),
        user_agent: null,
        first_seen_at: seen,
        last_seen_at: seen,
      })
      .execute();
    const w = await reviewFixture(database.db, { userId, amountMinor: 1_000_000n, at });
    const s = await signalsOf(w.id, at);
    expect(s.securityChange?.event).toBe('password_changed');
    expect(s.newDeviceAt?.getTime()).toBe(seen.getTime());
    const later = await signalsOf(w.id, new Date(at.getTime() + 80 * HOUR));
    expect(later.securityChange).toBeNull();
    expect(later.newDeviceAt).toBeNull();
  });

  it('an address of ours: any user deposit address (any checksum case), or the platform', async () => {
    const other = await createUser(database.db);
    const deposit = '0x3333333333333333333333333333333333333333';
    await database.db
      .insertInto('deposit_addresses')
      .values({
        user_id: other,
        network: 'ethereum',
        address: deposit.toUpperCase().replace('0X', '0x'),
        derivation_index: 9_200,
      })
      .execute();
    const toDeposit = await reviewFixture(database.db, { amountMinor: 1_000_000n, address: deposit });
    expect((await signalsOf(toDeposit.id)).ownAddress).toBe('deposit_address');
    const hot = '0x4444444444444444444444444444444444444444';
    const toHot = await reviewFixture(database.db, { amountMinor: 1_000_000n, address: hot });
    expect((await signalsOf(toHot.id, new Date(), [hot])).ownAddress).toBe('platform');
  });
});
