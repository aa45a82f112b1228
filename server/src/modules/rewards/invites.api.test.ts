import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { login, receiveCode, registerUser, sessionCookie, uniqueUser, useAuthHarness } from '../auth/test-helpers.ts';
import { advanceConfirmations } from '../deposits/processor.ts';
import { internalSend, lockFunds } from '../ledger/operations.ts';
import { reconcile } from '../ledger/reconcile.ts';
import { balanceOf } from '../ledger/test-helpers.ts';
import { bookPendingRewards } from './booker.ts';
import { maskName, normalizeInviteCode } from './invites.ts';
import { rewardsConfigFromEnv } from './rewards-config.ts';
import { createRewardsModule, seedRewardsPool } from './rewards-module.ts';

const config = rewardsConfigFromEnv({ INVITE_REWARD: '1', REWARDS_SEED_POOL: '100' });

describe('invitations', () => {
  const h = useAuthHarness({ rewards: { config } });
  const invite = (cookie: string) => h.app.inject({ method: 'GET', url: '/api/rewards/invite', headers: { cookie } });
  /** A new session after the clock moved past the idle timeout. */
  const relogin = async (u: { email: string; password: string }) => sessionCookie(await login(h, u.email, u.password));

  it('masks names and normalises typed codes', () => {
    expect(maskName('alice_w')).toBe('al***w');
    expect(maskName('bo')).toBe('b***');
    expect(normalizeInviteCode(' abcd-efgh ')).toBe('ABCDEFGH');
  });

  it('gives each user one code; a registration with a bad code is refused and changes nothing', async () => {
    const inviter = await registerUser(h);
    const first = (await invite(inviter.cookie)).json();
    expect(first.code).toMatch(/^[23456789ABCDEFGHJKMNPQRSTUVWXYZ]{8}$/);
    expect((await invite(inviter.cookie)).json().code).toBe(first.code);
    const { username, email } = uniqueUser();
    const code = await receiveCode(h, { email, purpose: 'register' });
    const body = {
      username,
      country: 'BR',
      password: 'Tr1cky-Pass!',
      confirmPassword: 'Tr1cky-Pass!',
      email,
      code,
      agreementAccepted: true,
    };
    const bad = await h.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { ...body, inviteCode: 'ZZZZZZZZ' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code).toBe('INVITE_CODE_INVALID');
    expect(
      await h.db.selectFrom('accounts').select('user_id').where('email', '=', email).executeTakeFirst(),
    ).toBeUndefined();
    // The e-mail code was not spent by the refused attempt.
    const ok = await h.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { ...body, inviteCode: first.code.toLowerCase() },
    });
    expect(ok.statusCode).toBe(201);
    const listed = (await invite(inviter.cookie)).json();
    expect(listed.invitations).toEqual([
      expect.objectContaining({ invitee: maskName(username), status: 'registered', rewardMinor: null }),
    ]);
  });

  /** A deposit of the invitee, confirming (credited by advanceConfirmations, as at its confirmations). */
  let depositNo = 100;
  const deposit = (userId: string, amountMinor: string) => {
    depositNo += 1;
    return h.db
      .insertInto('deposits')
      .values({
        user_id: userId,
        network: 'ethereum',
        coin: 'USDT',
        tx_hash: `0x${depositNo.toString(16).padStart(64, '0')}`,
        output_index: 0,
        from_address: null,
        to_address: `0x${'1'.repeat(40)}`,
        chain_amount: amountMinor,
        amount_minor: amountMinor,
        block_number: depositNo,
        block_hash: `0x${depositNo.toString(16).padStart(64, 'a')}`,
        required_confirmations: 1,
        confirmations: 0,
        state: 'confirming',
        reason: null,
        created_at: h.clock.now(),
        updated_at: h.clock.now(),
        completed_at: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
  };
  const credit = () => advanceConfirmations(h.db, 'ethereum', 100_000n, h.clock.now());
  const book = () => bookPendingRewards(h.db, config, h.clock.now());
  const qualifying = (10n * config.inviteRewardMinor).toString();

  async function invited() {
    await seedRewardsPool(h.db, config, h.clock.now());
    const inviter = await registerUser(h);
    const { code } = (await invite(inviter.cookie)).json();
    const invitee = await registerUser(h, { inviteCode: code });
    return { inviter, invitee };
  }

  it("holds the inviter's reward in pending rewards once the invitee's qualifying deposit is credited (dust does not qualify), and pays it after the claim delay", async () => {
    const { inviter, invitee } = await invited();
    const status = (await invite(inviter.cookie)).json();
    expect(status).toMatchObject({ qualifyingMinor: qualifying, rewardMinor: '1000000', holdHours: 24 });
    expect((await book()).invites).toBe(0);
    // Dust (the 0.001 USDT minimum, and one unit short of the rule), credited: no invite reward.
    await deposit(invitee.user.id, '1000');
    await deposit(invitee.user.id, (10n * config.inviteRewardMinor - 1n).toString());
    expect(await credit()).toBe(2);
    expect((await book()).invites).toBe(0);
    await deposit(invitee.user.id, qualifying);
    await deposit(invitee.user.id, qualifying);
    expect(await credit()).toBe(2);
    expect((await book()).invites).toBe(1);
    expect((await book()).invites).toBe(0);
    expect(await balanceOf(h.db, 'user_rewards', inviter.user.id, 'USDT')).toBe(1_000_000n);
    expect(await balanceOf(h.db, 'user_available', inviter.user.id, 'USDT')).toBe(0n);
    const held = (await invite(inviter.cookie)).json().invitations[0];
    expect(held).toMatchObject({ status: 'deposited', rewardMinor: '1000000', rewardAsset: 'USDT' });
    expect(Date.parse(held.releaseAt) - h.clock.now().getTime()).toBe(config.claimAfterMs);

    h.clock.advance(config.claimAfterMs - 1000);
    expect((await book()).invitesReleased).toBe(0);
    h.clock.advance(1000);
    expect(await book()).toMatchObject({ invitesReleased: 1, invitesForfeited: 0 });
    expect((await book()).invitesReleased).toBe(0);
    expect(await balanceOf(h.db, 'user_rewards', inviter.user.id, 'USDT')).toBe(0n);
    expect(await balanceOf(h.db, 'user_available', inviter.user.id, 'USDT')).toBe(1_000_000n);
    inviter.cookie = await relogin(inviter);
    expect((await invite(inviter.cookie)).json().invitations[0]).toMatchObject({ status: 'paid', releaseAt: null });
    expect((await reconcile(h.db)).ok).toBe(true);
  });

  it('forfeits the held reward when the invitee moved the qualifying deposit on (one deposit recycled through accounts)', async () => {
    const { inviter, invitee } = await invited();
    await deposit(invitee.user.id, qualifying);
    await credit();
    expect((await book()).invites).toBe(1);
    // The invitee withdraws it (locked for the withdrawal) before the reward is released.
    await h.db.transaction().execute((trx) =>
      lockFunds(
        trx,
        {
          idempotencyKey: `test:recycle:${invitee.user.id}`,
          userId: invitee.user.id,
          asset: 'USDT',
          amountMinor: 1n,
        },
        h.clock.now(),
      ),
    );
    const poolBefore = await balanceOf(h.db, 'system_rewards', null, 'USDT');
    h.clock.advance(config.claimAfterMs);
    expect(await book()).toMatchObject({ invitesReleased: 0, invitesForfeited: 1 });
    expect(await balanceOf(h.db, 'user_rewards', inviter.user.id, 'USDT')).toBe(0n);
    expect(await balanceOf(h.db, 'user_available', inviter.user.id, 'USDT')).toBe(0n);
    expect(await balanceOf(h.db, 'system_rewards', null, 'USDT')).toBe(poolBefore + 1_000_000n);
    inviter.cookie = await relogin(inviter);
    expect((await invite(inviter.cookie)).json().invitations[0]).toMatchObject({ status: 'forfeited' });
    expect((await reconcile(h.db)).ok).toBe(true);
  });

  it('forfeits the held reward when the qualifying amount left the account during the hold, even if it is back at release (one amount shuttled through internal sends)', async () => {
    const { inviter, invitee } = await invited();
    const mule = await registerUser(h);
    await deposit(invitee.user.id, qualifying);
    await credit();
    expect((await book()).invites).toBe(1);
    const send = (n: number, fromUserId: string, toUserId: string) =>
      h.db.transaction().execute((trx) =>
        internalSend(
          trx,
          {
            idempotencyKey: `test:shuttle:${invitee.user.id}:${n}`,
            fromUserId,
            toUserId,
            asset: 'USDT',
            amountMinor: 1n,
          },
          h.clock.now(),
        ),
      );
    // One unit leaves (the amount qualifies another account meanwhile) and comes back before release.
    await send(1, invitee.user.id, mule.user.id);
    h.clock.advance(config.claimAfterMs / 2);
    await send(2, mule.user.id, invitee.user.id);
    expect(await balanceOf(h.db, 'user_available', invitee.user.id, 'USDT')).toBe(BigInt(qualifying));
    h.clock.advance(config.claimAfterMs / 2);
    expect(await book()).toMatchObject({ invitesReleased: 0, invitesForfeited: 1 });
    expect(await balanceOf(h.db, 'user_available', inviter.user.id, 'USDT')).toBe(0n);
    expect((await reconcile(h.db)).ok).toBe(true);
  });

  it('pays the held reward when the invitee kept the qualifying amount all along and moved only the rest, and ignores moves after the release time', async () => {
    const { inviter, invitee } = await invited();
    const mule = await registerUser(h);
    await deposit(invitee.user.id, qualifying);
    await deposit(invitee.user.id, '5000');
    await credit();
    expect((await book()).invites).toBe(1);
    const send = (n: number, amountMinor: bigint) =>
      h.db.transaction().execute((trx) =>
        internalSend(
          trx,
          {
            idempotencyKey: `test:keep:${invitee.user.id}:${n}`,
            fromUserId: invitee.user.id,
            toUserId: mule.user.id,
            asset: 'USDT',
            amountMinor,
          },
          h.clock.now(),
        ),
      );
    await send(1, 5000n);
    h.clock.advance(config.claimAfterMs + 1000);
    // After the release time and before the booker's pass: the hold is over, the reward stands.
    await send(2, 1n);
    expect(await book()).toMatchObject({ invitesReleased: 1, invitesForfeited: 0 });
    expect(await balanceOf(h.db, 'user_available', inviter.user.id, 'USDT')).toBe(1_000_000n);
    expect((await reconcile(h.db)).ok).toBe(true);
  });

  it('forfeits the held reward when the qualifying deposit was reorged away after it was credited', async () => {
    const { inviter, invitee } = await invited();
    const { id } = await deposit(invitee.user.id, qualifying);
    await credit();
    expect((await book()).invites).toBe(1);
    // A reorg deeper than its confirmations removed it after it was credited (the watcher's alert).
    await sql`with alert as (
        insert into reorg_alerts (network, fork_block, deposits, created_at) values ('ethereum', 1, 1, now())
        returning id)
      update deposits set reorg_alert_id = (select id from alert) where id = ${id}::uuid`.execute(h.db);
    h.clock.advance(config.claimAfterMs);
    expect(await book()).toMatchObject({ invitesForfeited: 1 });
    expect(await balanceOf(h.db, 'user_rewards', inviter.user.id, 'USDT')).toBe(0n);
    expect((await reconcile(h.db)).ok).toBe(true);
  });

  it('one held reward that cannot be settled does not stop the others: it is skipped with an ALERT and retried (review L4)', async () => {
    const broken = await invited();
    await deposit(broken.invitee.user.id, qualifying);
    await credit();
    expect((await book()).invites).toBe(1);
    h.clock.advance(1000);
    const fine = await invited();
    await deposit(fine.invitee.user.id, qualifying);
    await credit();
    expect((await book()).invites).toBe(1);
    // The first due row cannot be settled (its recorded reward exceeds what its inviter holds pending).
    await h.db
      .updateTable('invitations')
      .set({ reward_minor: '2000000' })
      .where('invitee_id', '=', broken.invitee.user.id)
      .execute();
    h.clock.advance(config.claimAfterMs);
    const warnings: string[] = [];
    const module = createRewardsModule({ config, log: { warn: (_details, msg) => warnings.push(msg) } });
    await module.start(h.db, () => h.clock.now());
    await module.stop();
    expect(warnings.filter((m) => m.startsWith('ALERT'))).toHaveLength(1);
    expect(await balanceOf(h.db, 'user_available', fine.inviter.user.id, 'USDT')).toBe(1_000_000n);
    const report = await book();
    expect(report).toMatchObject({ invitesReleased: 0, invitesForfeited: 0 });
    expect(report.failures).toEqual([expect.objectContaining({ kind: 'invite-settle', id: broken.invitee.user.id })]);
    expect((await reconcile(h.db)).ok).toBe(true);
  });

  it('never attributes a user to themselves', async () => {
    const u = await registerUser(h);
    const { code } = (await invite(u.cookie)).json();
    const { inviterOf } = await import('./invites.ts');
    expect(await inviterOf(h.db, code)).toBe(u.user.id);
    await expect(
      h.db.transaction().execute(async (trx) => {
        const { recordInvitation } = await import('./invites.ts');
        await recordInvitation(trx, { inviteeId: u.user.id, inviterId: u.user.id, at: h.clock.now() });
      }),
    ).rejects.toMatchObject({ code: 'INVITE_CODE_INVALID' });
  });
});
