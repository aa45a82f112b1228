import { describe, expect, it } from 'vitest';
import { login, nextIp, receiveCode, sessionCookie, setFundPassword, withDevice } from '../auth/test-helpers.ts';
import { extractCode } from '../mail/smtp-sink.ts';
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
 * withdrawals; and for 24 hours after a password reset or change or a fund password set or changed (how
 * a taken-over account is made the attacker's, an e-mail change included) nothing leaves the account.
 */
const h = useWalletHarness();

async function send(user: WalletUser, to: WalletUser, code?: string, extra: object = {}) {
  return post(h, user, '/api/wallet/sends', {
    ...extra,
    coin: 'USDT',
    amountMinor: '1500000',
    recipientKind: 'email',
    recipient: to.email,
    idempotencyKey: key(),
    emailCode: code ?? (await transferCode(h, user)),
  });
}

async function withdraw(user: WalletUser, extra: object = {}) {
  return post(h, user, '/api/wallet/withdrawals', {
    ...extra,
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

  /**
   * Each way an account is made someone else's, run through the API as a user would (not audit rows
   * written by hand): a renamed event would leave its flow unheld, and this test would fail.
   */
  const NEW_PASSWORD = 'An0ther-Pass!';
  const takeovers: [name: string, run: (u: WalletUser) => Promise<[WalletUser, string?]>][] = [
    [
      'a password reset',
      async (u) => {
        const code = await receiveCode(h, { email: u.email, purpose: 'reset_password' });
        const res = await h.app.inject({
          method: 'POST',
          url: '/api/auth/password/reset',
          remoteAddress: nextIp(),
          // From the browser the account registered in: it stays known (the others are forgotten).
          headers: { cookie: withDevice(u.username) },
          payload: { email: u.email, code, password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD },
        });
        expect(res.statusCode).toBe(204);
        return [{ ...u, password: NEW_PASSWORD, cookie: sessionCookie(await login(h, u.username, NEW_PASSWORD)) }];
      },
    ],
    [
      'a signed-in password change',
      async (u) => {
        const res = await post(h, u, '/api/me/password', {
          oldPassword: u.password,
          password: NEW_PASSWORD,
          confirmPassword: NEW_PASSWORD,
        });
        expect(res.statusCode).toBe(204);
        return [{ ...u, password: NEW_PASSWORD }];
      },
    ],
    [
      'changing the fund password',
      async (u) => {
        await setFundPassword(h, u, '739164');
        h.clock.advance(24 * 3_600_000 + 1000);
        const fresh = { ...u, cookie: sessionCookie(await login(h, u.username, u.password)) };
        h.clock.advance(1000);
        await setFundPassword(h, fresh, '502817');
        return [fresh, '502817'];
      },
    ],
    [
      'an e-mail change',
      async (u) => {
        const email = `moved-${u.username.toLowerCase()}@example.com`;
        const before = h.sink.messages.length;
        expect((await post(h, u, '/api/me/security/email/code', { newEmail: email })).statusCode).toBe(202);
        const code = extractCode((await h.sink.waitFor(email, { after: before })).raw);
        const res = await post(h, u, '/api/me/security/email', { newEmail: email, code });
        expect(res.statusCode, res.body).toBe(200);
        return [{ ...u, email }];
      },
    ],
  ];

  it('setting a first fund password does not hold a first withdrawal or send', async () => {
    const [a, b] = [await newUser(h), await newUser(h)];
    await fund(h, a.user.id, 'USDT', 10_000_000n);
    await setFundPassword(h, a, '739164');
    expect((await send(a, b, undefined, { fundPassword: '739164' })).statusCode).toBe(201);
  });

  it.each(takeovers)('for 24 hours after %s, sends and withdrawals are refused (OUTFLOW_HOLD)', async (_, takeOver) => {
    const [first, b] = [await newUser(h), await newUser(h)];
    await fund(h, first.user.id, 'USDT', 10_000_000n);
    const [a, pin] = await takeOver(first);
    const fundPassword = pin === undefined ? {} : { fundPassword: pin };
    const sent = await send(a, b, undefined, fundPassword);
    expect(sent.statusCode).toBe(423);
    expect(sent.json()).toMatchObject({ code: 'OUTFLOW_HOLD' });
    expect(sent.json().details.retryAfterSeconds).toBeGreaterThan(23 * 3600);
    const withdrawn = await withdraw(a, fundPassword);
    expect(withdrawn.json().code).toBe('OUTFLOW_HOLD');
    expect(await balance(h, a, 'USDT')).toEqual({ available: 10_000_000n, locked: 0n });

    h.clock.advance(24 * 3_600_000 + 1000);
    const again = { ...a, cookie: sessionCookie(await login(h, a.username, a.password)) };
    expect((await send(again, b, undefined, fundPassword)).statusCode).toBe(201);
  });
});
