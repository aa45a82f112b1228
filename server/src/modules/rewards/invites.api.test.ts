import { describe, expect, it } from 'vitest';
import { receiveCode, registerUser, uniqueUser, useAuthHarness } from '../auth/test-helpers.ts';
import { advanceConfirmations } from '../deposits/processor.ts';
import { reconcile } from '../ledger/reconcile.ts';
import { bookPendingRewards } from './booker.ts';
import { maskName, normalizeInviteCode } from './invites.ts';
import { rewardsConfigFromEnv } from './rewards-config.ts';
import { seedRewardsPool } from './rewards-module.ts';

const config = rewardsConfigFromEnv({ INVITE_REWARD: '1', REWARDS_SEED_POOL: '100' });

describe('invitations', () => {
  const h = useAuthHarness({ rewards: { config } });
  const invite = (cookie: string) => h.app.inject({ method: 'GET', url: '/api/rewards/invite', headers: { cookie } });

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

  it("pays the inviter once, when the invitee's qualifying deposit is credited; dust does not qualify", async () => {
    await seedRewardsPool(h.db, config, h.clock.now());
    const inviter = await registerUser(h);
    const { code, qualifyingMinor } = (await invite(inviter.cookie)).json();
    expect(qualifyingMinor).toBe((10n * config.inviteRewardMinor).toString());
    const invitee = await registerUser(h, { inviteCode: code });
    expect((await bookPendingRewards(h.db, config, h.clock.now())).invites).toBe(0);
    const deposit = (i: number, amountMinor: string) =>
      h.db
        .insertInto('deposits')
        .values({
          user_id: invitee.user.id,
          network: 'ethereum',
          coin: 'USDT',
          tx_hash: `0x${String(i).repeat(64)}`,
          output_index: 0,
          from_address: null,
          to_address: `0x${'1'.repeat(40)}`,
          chain_amount: amountMinor,
          amount_minor: amountMinor,
          block_number: i,
          block_hash: `0x${String(i).padStart(64, '0')}`,
          required_confirmations: 1,
          confirmations: 0,
          state: 'confirming',
          reason: null,
          created_at: h.clock.now(),
          updated_at: h.clock.now(),
          completed_at: null,
        })
        .execute();
    // Dust (the 0.001 USDT minimum, and one unit short of the rule), credited: no invite reward.
    await deposit(1, '1000');
    await deposit(2, (10n * config.inviteRewardMinor - 1n).toString());
    // Credited by the deposit processor, as the watcher would at the deposits' confirmations.
    expect(await advanceConfirmations(h.db, 'ethereum', 10n, h.clock.now())).toBe(2);
    expect((await bookPendingRewards(h.db, config, h.clock.now())).invites).toBe(0);
    await deposit(3, (10n * config.inviteRewardMinor).toString());
    await deposit(4, (10n * config.inviteRewardMinor).toString());
    expect(await advanceConfirmations(h.db, 'ethereum', 10n, h.clock.now())).toBe(2);
    expect((await bookPendingRewards(h.db, config, h.clock.now())).invites).toBe(1);
    expect((await bookPendingRewards(h.db, config, h.clock.now())).invites).toBe(0);
    const available = await h.db
      .selectFrom('ledger_accounts')
      .select('balance')
      .where('user_id', '=', inviter.user.id)
      .where('kind', '=', 'user_available')
      .executeTakeFirstOrThrow();
    expect(available.balance).toBe('1000000');
    const listed = (await invite(inviter.cookie)).json();
    expect(listed.invitations[0]).toMatchObject({ status: 'deposited', rewardMinor: '1000000', rewardAsset: 'USDT' });
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
