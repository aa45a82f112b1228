import { describe, expect, it } from 'vitest';
import { createUser } from '../../test/app.ts';
import { useTestDatabase } from '../../test/database.ts';
import type { CoinCode } from '../catalogue/catalogue.ts';
import { fundRewards } from '../ledger/operations.ts';
import { reconcile } from '../ledger/reconcile.ts';
import { balanceOf } from '../ledger/test-helpers.ts';
import { bookPendingRewards } from './booker.ts';
import { claimRewards, deliverClaims } from './claims.ts';
import { utcDay } from './days.ts';
import { ClaimTooEarlyError } from './errors.ts';
import { rewardsConfigFromEnv } from './rewards-config.ts';
import { confirmSigns } from './sign-confirm.ts';

/**
 * Issue 36, item 11: REWARDS_ASSET changed between bookings. Bookings made in the old asset are paid
 * in it (or skipped, alerted, while its pool is short) without stopping the new asset's; a claim takes
 * every ripe reward in its own asset (never CLAIM_TOO_EARLY with a retry of 1 s forever); a delivery
 * moves each asset's claims in that asset (never an assertion, a 500).
 */
const database = useTestDatabase();
const DAY_MS = 86_400_000;
const start = new Date('2031-03-01T12:00:00.000Z');
const usdt = rewardsConfigFromEnv({ REWARDS_ASSET: 'USDT', REWARDS_CLAIM_MIN: '0.1', REWARDS_SEED_POOL: '0' });
const tusd = rewardsConfigFromEnv({ REWARDS_ASSET: 'TUSD', REWARDS_CLAIM_MIN: '0.1', REWARDS_SEED_POOL: '0' });
const WALLET = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
let tx = 0;

async function fund(asset: CoinCode, amountMinor: bigint, key: string) {
  await database.db
    .transaction()
    .execute((trx) => fundRewards(trx, { idempotencyKey: key, asset, amountMinor }, start));
}

/** A confirmed (unbooked) check-in of `day` in `asset`, as the confirm step leaves it. */
async function confirmed(userId: string, day: string, asset: CoinCode, rewardMinor: bigint, at: Date) {
  tx += 1;
  await database.db
    .insertInto('sign_records')
    .values({
      user_id: userId,
      day,
      network: 'ethereum',
      address: WALLET,
      tx_hash: `0x${tx.toString(16).padStart(64, 'a')}`,
      log_index: 0,
      block_number: String(tx),
      block_hash: `0x${tx.toString(16).padStart(64, 'b')}`,
      state: 'confirmed',
      asset,
      reward_minor: rewardMinor.toString(),
      seen_at: at,
      confirmed_at: at,
    })
    .execute();
}

/** A claim names one of the user's confirmed check-ins (issue 36 item 13): any will do here. */
async function recordOf(userId: string): Promise<string> {
  const row = await database.db
    .selectFrom('sign_records')
    .select('id')
    .where('user_id', '=', userId)
    .where('state', '=', 'confirmed')
    .executeTakeFirstOrThrow();
  return row.id;
}

describe('a rewards asset change does not wedge bookings, claims or deliveries', () => {
  it('an old-asset booking the pool cannot pay is skipped with an alert; the new asset books; once funded, the old one is paid in its own asset', async () => {
    const db = database.db;
    const old = await createUser(db);
    const fresh = await createUser(db);
    await confirmed(old, '2031-03-01', 'USDT', 100_000n, start); // under the old config, first in line
    await confirmed(fresh, '2031-03-01', 'TUSD', 10n ** 17n, new Date(start.getTime() + 1000));
    await fund('TUSD', 10n ** 18n, 'asset-change:tusd');
    const report = await bookPendingRewards(db, tusd, start);
    expect(report).toMatchObject({ signs: 1, poolShort: true, shortAssets: ['USDT'] });
    expect(await balanceOf(db, 'user_rewards', fresh, 'TUSD')).toBe(10n ** 17n);
    expect(await balanceOf(db, 'user_rewards', old, 'USDT')).toBe(0n);
    await fund('USDT', 10n ** 6n, 'asset-change:usdt');
    expect(await bookPendingRewards(db, tusd, start)).toMatchObject({ signs: 1, poolShort: false });
    expect(await balanceOf(db, 'user_rewards', old, 'USDT')).toBe(100_000n);
    expect((await reconcile(db)).ok).toBe(true);
  });

  it('a check-in seen under the old asset and confirmed under the new one is rewarded in the new asset', async () => {
    const db = database.db;
    const userId = await createUser(db);
    tx += 1;
    await db
      .insertInto('sign_records')
      .values({
        user_id: userId,
        day: '2031-03-02',
        network: 'ethereum',
        address: WALLET,
        tx_hash: `0x${tx.toString(16).padStart(64, 'c')}`,
        log_index: 0,
        block_number: '1',
        block_hash: `0x${'d'.repeat(64)}`,
        state: 'seen',
        asset: 'USDT',
        reward_minor: '0',
        seen_at: start,
      })
      .execute();
    await confirmSigns(db, { network: 'ethereum', verifiedHeight: 100n, config: tusd, at: start });
    const row = await db
      .selectFrom('sign_records')
      .select(['state', 'asset', 'reward_minor'])
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ state: 'confirmed', asset: 'TUSD', reward_minor: (10n ** 17n).toString() });
  });

  it('claims the ripe old-asset rewards in their asset, and delivers each asset in its own transfer', async () => {
    const db = database.db;
    const userId = await createUser(db);
    await fund('USDT', 10n ** 7n, 'asset-change:usdt-2');
    await fund('TUSD', 10n ** 19n, 'asset-change:tusd-2');
    // Seven consecutive days: five under USDT, then the switch to TUSD.
    for (let i = 0; i < 7; i++) {
      const at = new Date(start.getTime() + i * DAY_MS);
      const asset: CoinCode = i < 5 ? 'USDT' : 'TUSD';
      await confirmed(userId, utcDay(at), asset, asset === 'USDT' ? 100_000n : 10n ** 17n, at);
    }
    await bookPendingRewards(db, tusd, start);
    // Day 7 (TUSD) is 1 hour old: only the USDT days and day 6 are ripe.
    const now = new Date(start.getTime() + 6 * DAY_MS + 3_600_000);
    const claim = await claimRewards(db, { userId, signRecordId: await recordOf(userId), config: tusd, at: now });
    expect(claim.asset).toBe('TUSD');
    const claims = await db
      .selectFrom('reward_claims')
      .select(['asset', 'amount_minor'])
      .where('user_id', '=', userId)
      .orderBy('asset')
      .execute();
    expect(claims).toEqual([
      { asset: 'TUSD', amount_minor: (10n ** 17n).toString() },
      { asset: 'USDT', amount_minor: '500000' },
    ]);
    // Nothing ripe is left: too early, with the real wait (day 7's 23 hours), not 1 s.
    const early = await claimRewards(db, { userId, signRecordId: await recordOf(userId), config: tusd, at: now }).catch(
      (e) => e,
    );
    expect(early).toBeInstanceOf(ClaimTooEarlyError);
    expect((early as ClaimTooEarlyError).details).toEqual({ retryAfterSeconds: 23 * 3600 });

    const delivered = await deliverClaims(db, { userId, config: tusd, at: now });
    expect(delivered).toMatchObject({ asset: 'TUSD', deliveredMinor: (10n ** 17n).toString(), claims: 2 });
    expect(await balanceOf(db, 'user_available', userId, 'USDT')).toBe(500_000n);
    expect(await balanceOf(db, 'user_available', userId, 'TUSD')).toBe(10n ** 17n);
    expect(await balanceOf(db, 'user_rewards', userId, 'USDT')).toBe(0n);
    expect((await reconcile(db)).ok).toBe(true);
  });

  it('a user whose only ripe rewards are in the old asset is not told to retry in 1 s', async () => {
    const db = database.db;
    const userId = await createUser(db);
    await fund('USDT', 10n ** 7n, 'asset-change:usdt-3');
    await confirmed(userId, '2031-03-01', 'USDT', 100_000n, start);
    await bookPendingRewards(db, usdt, start);
    const later = new Date(start.getTime() + 2 * DAY_MS);
    const claim = await claimRewards(db, { userId, signRecordId: await recordOf(userId), config: tusd, at: later });
    expect(claim).toMatchObject({ asset: 'USDT', amountMinor: '100000' });
  });
});
