import { describe, expect, it } from 'vitest';
import { login, sessionCookie } from '../auth/test-helpers.ts';
import {
  balance,
  ETH_ADDRESS,
  fund,
  key,
  newUser,
  post,
  transferCode,
  useWalletHarness,
  type WalletUser,
  withdrawCode,
} from '../withdrawals/test-helpers.ts';

/**
 * Issue 38 item 2 (part) and issue 37 item 4: what stops a withdrawal also stops a send, since a send to a
 * mule account is a withdrawal one step later. A deep-reorg freeze refuses sends as it refuses
 * withdrawals; and for 24 hours after a password reset or a fund-password change (how a taken-over
 * account is made the attacker's) nothing leaves the account.
 */
const h = useWalletHarness();

async function send(user: WalletUser, to: WalletUser, code?: string) {
  return post(h, user, '/api/wallet/sends', {
    coin: 'USDT',
    amountMinor: '1500000',
    recipientKind: 'email',
    recipient: to.email,
    idempotencyKey: key(),
    emailCode: code ?? (await transferCode(h, user)),
  });
}

async function withdraw(user: WalletUser) {
  return post(h, user, '/api/wallet/withdrawals', {
    coin: 'USDT',
    network: 'ethereum',
    address: ETH_ADDRESS,
    amountMinor: '2000000',
    idempotencyKey: key(),
    emailCode: await withdrawCode(h, user),
  });
}

async function freeze(userId: string) {
  const alert = await h.db
    .insertInto('reorg_alerts')
    .values({ network: 'ethereum', fork_block: '100', deposits: 1, created_at: h.clock.now() })
    .returning('id')
    .executeTakeFirstOrThrow();
  await h.db
    .insertInto('withdrawal_freezes')
    .values({ user_id: userId, alert_id: alert.id, created_at: h.clock.now() })
    .execute();
}

describe('outflow holds', () => {
  it('a deep-reorg freeze refuses sends as it refuses withdrawals (WITHDRAW_FROZEN), nothing moves', async () => {
    const [a, b] = [await newUser(h), await newUser(h)];
    await fund(h, a.user.id, 'USDT', 10_000_000n);
    await freeze(a.user.id);
    const refused = await send(a, b);
    expect(refused.statusCode).toBe(423);
    expect(refused.json().code).toBe('WITHDRAW_FROZEN');
    expect(await balance(h, a, 'USDT')).toEqual({ available: 10_000_000n, locked: 0n });
    expect((await balance(h, b, 'USDT')).available).toBe(0n);
  });

  it.each([['password_reset'], ['fund_password_changed']] as const)(
    'for 24 hours after %s, sends and withdrawals are refused (OUTFLOW_HOLD)',
    async (event) => {
      const [a, b] = [await newUser(h), await newUser(h)];
      await fund(h, a.user.id, 'USDT', 10_000_000n);
      await h.db
        .insertInto('audit_events')
        .values({ occurred_at: h.clock.now(), event, user_id: a.user.id, ip: null, details: '{}' })
        .execute();
      const sent = await send(a, b);
      expect(sent.statusCode).toBe(423);
      expect(sent.json()).toMatchObject({ code: 'OUTFLOW_HOLD' });
      expect(sent.json().details.retryAfterSeconds).toBeGreaterThan(23 * 3600);
      const withdrawn = await withdraw(a);
      expect(withdrawn.json().code).toBe('OUTFLOW_HOLD');
      expect(await balance(h, a, 'USDT')).toEqual({ available: 10_000_000n, locked: 0n });

      h.clock.advance(24 * 3_600_000 + 1000);
      const again = { ...a, cookie: sessionCookie(await login(h, a.username, a.password)) };
      expect((await send(again, b)).statusCode).toBe(201);
    },
  );
});
