import { beforeAll, describe, expect, it } from 'vitest';
import { login, registerUser, sessionCookie, useAuthHarness } from '../auth/test-helpers.ts';
import { fundRewards } from '../ledger/operations.ts';
import { reconcile } from '../ledger/reconcile.ts';
import { bookPendingRewards } from './booker.ts';
import { addDays, utcDay } from './days.ts';
import { rewardsConfigFromEnv } from './rewards-config.ts';
import { seedRewardsPool } from './rewards-module.ts';
import { signedOn } from './test-helpers.ts';

const config = rewardsConfigFromEnv({ REWARDS_CLAIM_MIN: '0.2', REWARDS_SEED_POOL: '1000' });
const HOUR_MS = 3_600_000;
const WALLET = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

async function balance(h: ReturnType<typeof useAuthHarness>, userId: string, kind: 'user_available' | 'user_rewards') {
  const row = await h.db
    .selectFrom('ledger_accounts')
    .select('balance')
    .where('user_id', '=', userId)
    .where('kind', '=', kind)
    .where('asset', '=', config.asset)
    .executeTakeFirst();
  return row?.balance ?? '0';
}

/** A new session after the clock moved past the idle timeout. */
async function relogin(h: ReturnType<typeof useAuthHarness>, u: { email: string; password: string }) {
  return sessionCookie(await login(h, u.email, u.password));
}

describe('rewards: check-in records, claims and delivery', () => {
  const h = useAuthHarness({ rewards: { config } });
  beforeAll(async () => {
    await seedRewardsPool(h.db, config, h.clock.now());
  });

  const get = (cookie: string) => h.app.inject({ method: 'GET', url: '/api/rewards/sign', headers: { cookie } });
  const claimNaming = (cookie: string, signRecordId: string) =>
    h.app.inject({ method: 'POST', url: '/api/rewards/claims', headers: { cookie }, payload: { signRecordId } });
  /** A claim naming the user's newest confirmed check-in from `address` (as the sign screen does). */
  const claim = async (cookie: string, address = WALLET) => {
    const records: { id: string; address: string; state: string }[] = (await get(cookie)).json().records;
    const own = records.find((r) => r.state === 'confirmed' && r.address === address);
    return claimNaming(cookie, own?.id ?? '00000000-0000-4000-8000-000000000000');
  };
  const deliver = (cookie: string) =>
    h.app.inject({ method: 'POST', url: '/api/rewards/deliveries', headers: { cookie } });

  it('needs a session, and issues one opaque member tag per user', async () => {
    expect((await h.app.inject({ method: 'GET', url: '/api/rewards/sign' })).statusCode).toBe(401);
    const a = await registerUser(h);
    const first = (await get(a.cookie)).json();
    expect(first.memberTag).toMatch(/^0x[0-9a-f]{64}$/);
    expect((await get(a.cookie)).json().memberTag).toBe(first.memberTag);
    expect(first.todayState).toBe('none');
    expect(first.week).toHaveLength(7);
    expect(first.nextDayAt).toBe(`${addDays(utcDay(h.clock.now()), 1)}T00:00:00.000Z`);
    // The screen's "claimable N hours after the check-in" comes from the configuration (issue 30 item 1).
    expect(first.claimAfterHours).toBe(config.claimAfterMs / 3_600_000);
    expect(first.claimMinMinor).toBe(config.claimMinMinor.toString());
  });

  it('refuses a claim with nothing to claim, too early, below the minimum, or from a wallet never used', async () => {
    const u = await registerUser(h);
    expect((await claim(u.cookie)).json().code).toBe('WALLET_NOT_BOUND');
    const today = utcDay(h.clock.now());
    await signedOn(h.db, config, { userId: u.user.id, day: today, at: h.clock.now() });
    expect((await claim(u.cookie, `0x${'2'.repeat(40)}`)).json().code).toBe('WALLET_NOT_BOUND');
    const early = await claim(u.cookie);
    expect(early.statusCode).toBe(409);
    expect(early.json()).toMatchObject({ code: 'CLAIM_TOO_EARLY', details: { retryAfterSeconds: 86_400 } });
    h.clock.advance(24 * HOUR_MS);
    u.cookie = await relogin(h, u);
    // One day's 0.1 USDT is below the 0.2 minimum.
    expect((await claim(u.cookie)).json().code).toBe('REWARD_TOO_SMALL');
    const status = (await get(u.cookie)).json();
    expect(status.claimableMinor).toBe('100000');
    expect(status.records[0]).toMatchObject({ state: 'confirmed', rewardMinor: '100000', claimable: true });
  });

  it('claims after 24 hours, delivers only with a 7-day streak, in one transfer, once; the books balance', async () => {
    const u = await registerUser(h);
    const start = h.clock.now();
    // Six consecutive days, each booked into the user's pending rewards.
    for (let i = 0; i < 6; i++) {
      const at = new Date(start.getTime() + i * 24 * HOUR_MS);
      await signedOn(h.db, config, { userId: u.user.id, day: utcDay(at), at, streakDay: i + 1 });
    }
    h.clock.set(new Date(start.getTime() + 6 * 24 * HOUR_MS));
    u.cookie = await relogin(h, u);
    const pending = await balance(h, u.user.id, 'user_rewards');
    expect(pending).toBe('1400000'); // 0.1 + 0.1 + 0.2 + 0.2 + 0.3 + 0.5
    const claimed = await claim(u.cookie);
    expect(claimed.statusCode).toBe(201);
    expect(claimed.json()).toMatchObject({ amountMinor: '1400000', address: WALLET, delivered: false });
    expect((await claim(u.cookie)).json().code).toBe('REWARD_ZERO');
    // A 6-day streak: delivery refused, nothing moved.
    const refused = await deliver(u.cookie);
    expect(refused.json()).toMatchObject({ code: 'STREAK_REQUIRED', details: { limit: 7 } });
    expect(await balance(h, u.user.id, 'user_available')).toBe('0');
    // Day 7: the streak is complete.
    await signedOn(h.db, config, { userId: u.user.id, day: utcDay(h.clock.now()), at: h.clock.now(), streakDay: 7 });
    const delivered = await deliver(u.cookie);
    expect(delivered.statusCode).toBe(201);
    expect(delivered.json()).toEqual({ asset: 'USDT', deliveredMinor: '1400000', claims: 1 });
    expect(await balance(h, u.user.id, 'user_available')).toBe('1400000');
    expect(await balance(h, u.user.id, 'user_rewards')).toBe('1000000'); // day 7's 1 USDT, not claimed yet
    expect((await deliver(u.cookie)).json().code).toBe('REWARD_ZERO');
    const status = (await get(u.cookie)).json();
    expect(status.streak).toBe(7);
    expect(status.week.every((d: { signed: boolean }) => d.signed)).toBe(true);
    expect(status.claims[0]).toMatchObject({ delivered: true });
    expect((await reconcile(h.db)).ok).toBe(true);
  });

  it('a check-in made "for" a user from someone else\'s wallet neither redirects nor blocks the claim (issue 36 item 13)', async () => {
    const victim = await registerUser(h);
    const attacker = await registerUser(h);
    const ATTACKER_WALLET = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';
    const start = h.clock.now();
    // The victim checks in from WALLET; the attacker, who saw the victim's public member tag on chain,
    // checks in "for" the victim from its own wallet the next day.
    await signedOn(h.db, config, { userId: victim.user.id, day: utcDay(start), at: start });
    const next = new Date(start.getTime() + 24 * HOUR_MS);
    await signedOn(h.db, config, {
      userId: victim.user.id,
      day: utcDay(next),
      at: next,
      address: ATTACKER_WALLET,
      streakDay: 2,
    });
    h.clock.set(new Date(start.getTime() + 3 * 24 * HOUR_MS));
    victim.cookie = await relogin(h, victim);
    attacker.cookie = await relogin(h, attacker);
    const records: { id: string; address: string }[] = (await get(victim.cookie)).json().records;
    const own = records.find((r) => r.address === WALLET);
    const planted = records.find((r) => r.address === ATTACKER_WALLET);
    if (!own || !planted) throw new Error('both check-ins are recorded for the victim');
    // The address can no longer be chosen in the request: the body names a check-in record.
    const named = await h.app.inject({
      method: 'POST',
      url: '/api/rewards/claims',
      headers: { cookie: victim.cookie },
      payload: { signRecordId: own.id, address: ATTACKER_WALLET },
    });
    expect(named.statusCode).toBe(400);
    // The attacker cannot claim through the victim's records, with its own session.
    expect((await claimNaming(attacker.cookie, planted.id)).json().code).toBe('WALLET_NOT_BOUND');
    expect((await claimNaming(attacker.cookie, own.id)).json().code).toBe('WALLET_NOT_BOUND');
    // The victim claims naming its own check-in: the claim's wallet is that record's, whatever was planted.
    const claimed = await claimNaming(victim.cookie, own.id);
    expect(claimed.statusCode).toBe(201);
    expect(claimed.json()).toMatchObject({ address: WALLET, amountMinor: '200000' });
    expect((await get(victim.cookie)).json().claims[0].address).toBe(WALLET);
  });

  it('books a sign reward only when the pool can pay, and later once it is funded', async () => {
    const poor = rewardsConfigFromEnv({ REWARDS_ASSET: 'TUSD', REWARDS_SCHEDULE: '5', REWARDS_SEED_POOL: '3' });
    const u = await registerUser(h);
    await seedRewardsPool(h.db, poor, h.clock.now());
    await signedOn(h.db, poor, { userId: u.user.id, day: '2031-01-01', at: h.clock.now() });
    const row = await h.db
      .selectFrom('sign_records')
      .selectAll()
      .where('user_id', '=', u.user.id)
      .executeTakeFirstOrThrow();
    expect(row.booked_at).toBeNull();
    const report = await bookPendingRewards(h.db, poor, h.clock.now());
    expect(report.poolShort).toBe(true);
    await h.db
      .transaction()
      .execute((trx) =>
        fundRewards(trx, { idempotencyKey: 'test:fund-tusd', asset: 'TUSD', amountMinor: 10n ** 21n }, h.clock.now()),
      );
    expect((await bookPendingRewards(h.db, poor, h.clock.now())).signs).toBe(1);
    expect(
      await h.db
        .selectFrom('ledger_accounts')
        .select('balance')
        .where('user_id', '=', u.user.id)
        .where('kind', '=', 'user_rewards')
        .where('asset', '=', 'TUSD')
        .executeTakeFirst(),
    ).toEqual({ balance: '5000000000000000000' });
    expect((await reconcile(h.db)).ok).toBe(true);
  });
});
