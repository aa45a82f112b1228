import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, login, receiveCode, registerUser, sessionCookie, useAuthHarness } from '../auth/test-helpers.ts';
import { createLedgerService } from '../ledger/service.ts';
import type { MoonPayClient } from './moonpay/client.ts';
import type { SandboxRamp } from './sandbox/sandbox-server.ts';
import { setCountry, startTestProvider } from './test-helpers.ts';

/**
 * Issue 38 review, item 1: a sell is a withdrawal to the provider. A stolen session alone (no fund
 * password, no mailbox) must not cash out through it, and the outflow holds stop it like a withdrawal.
 */
const XPUB =
  'xpub6BosfCnifzxcFwrSzQiqu2DBVTshkCXacvNsWGYJVVhhawA7d4R5WSWGFNbi8Aw6ZRc1brxMyWMzG3DSSSSoekkudhUd9yLb6qx39T9nMdj';
const FUND_PASSWORD = '739164';

let sandbox: SandboxRamp;
let client: MoonPayClient;
beforeAll(async () => {
  ({ sandbox, client } = await startTestProvider());
});
afterAll(async () => sandbox.close());

type User = Awaited<ReturnType<typeof registerUser>>;

describe('a sell order needs the wallet-action checks of a withdrawal', () => {
  const h: Harness = useAuthHarness({
    auth: { codeLimits: { resendAfterSeconds: 0, perAddressPerHour: 10_000, perIpPerHour: 10_000 } },
    deposits: { xpubs: { ethereum: XPUB, bsc: XPUB } },
    ramp: { provider: () => client, networks: () => new Set(['ethereum', 'bsc'] as const), wallClockMs: Date.now },
  });
  const api = (cookie: string, method: 'GET' | 'POST', url: string, payload?: object) =>
    h.app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });
  const code = (u: User, purpose: 'withdraw' | 'fund_password') => {
    h.clock.advance(1000);
    return receiveCode(h, { purpose, cookie: u.cookie, to: u.email });
  };

  /** A Brazilian seller with 1 ETH, a fund password (set more than a day ago) and an active chat-app method. */
  async function seller() {
    const u = await registerUser(h);
    await setCountry(h.db, u.user.id, 'BR');
    const set = await api(u.cookie, 'POST', '/api/me/fund-password', {
      code: await code(u, 'fund_password'),
      fundPassword: FUND_PASSWORD,
      confirmFundPassword: FUND_PASSWORD,
    });
    expect(set.statusCode).toBe(204);
    h.clock.advance(25 * 3_600_000);
    u.cookie = sessionCookie(await login(h, u.username, u.password));
    await createLedgerService({ db: h.db, now: h.clock.now }).deposit({
      idempotencyKey: `fund:${u.user.id}`,
      userId: u.user.id,
      asset: 'ETH',
      amountMinor: 10n ** 18n,
    });
    const pix = await api(u.cookie, 'POST', '/api/payment-methods', {
      kind: 'chat_app',
      app: 'whatsapp',
      handle: '+5511987654321',
      fundPassword: FUND_PASSWORD,
    });
    expect(pix.statusCode).toBe(201);
    return { u, methodId: pix.json().id as string };
  }
  const quote = async (u: User) =>
    (
      await api(u.cookie, 'POST', '/api/ramp/quotes', {
        side: 'sell',
        coin: 'ETH',
        network: 'ethereum',
        amountMinor: '100000000000000000',
        method: 'pix',
      })
    ).json().id as string;
  const place = async (u: User, methodId: string, extra: object) =>
    api(u.cookie, 'POST', '/api/ramp/orders', {
      quoteId: await quote(u),
      termsAccepted: true,
      payoutMethodId: methodId,
      idempotencyKey: randomUUID(),
      ...extra,
    });
  const locked = async (u: User) =>
    (await api(u.cookie, 'GET', '/api/me/balances')).json().find((b: { asset: string }) => b.asset === 'ETH')
      ?.lockedMinor;

  it('refuses a sell without the fund password and the e-mail code, with a wrong one, and locks nothing', async () => {
    const { u, methodId } = await seller();
    const bare = await place(u, methodId, {});
    expect(bare.statusCode).toBe(400);
    expect(bare.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
    const noCode = await place(u, methodId, { fundPassword: FUND_PASSWORD });
    expect(noCode.statusCode).toBe(400);
    const wrong = await place(u, methodId, { fundPassword: '111111', emailCode: await code(u, 'withdraw') });
    expect(wrong.json()).toMatchObject({ code: 'WRONG_FUND_PASSWORD' });
    expect(await locked(u)).toBe('0');

    const placed = await place(u, methodId, { fundPassword: FUND_PASSWORD, emailCode: await code(u, 'withdraw') });
    expect(placed.statusCode).toBe(200);
    expect(await locked(u)).not.toBe('0');
  });

  it('an e-mail code authorises one sell only', async () => {
    const { u, methodId } = await seller();
    const emailCode = await code(u, 'withdraw');
    expect((await place(u, methodId, { fundPassword: FUND_PASSWORD, emailCode })).statusCode).toBe(200);
    const again = await place(u, methodId, { fundPassword: FUND_PASSWORD, emailCode });
    expect(again.statusCode).toBe(400);
  });

  it('meets the outflow holds: refused (OUTFLOW_HOLD) for 24 h after a password reset, nothing locked', async () => {
    const { u, methodId } = await seller();
    await h.db
      .insertInto('audit_events')
      .values({ occurred_at: h.clock.now(), event: 'password_reset', user_id: u.user.id, ip: null, details: '{}' })
      .execute();
    const held = await place(u, methodId, { fundPassword: FUND_PASSWORD, emailCode: await code(u, 'withdraw') });
    expect(held.statusCode).toBe(423);
    expect(held.json()).toMatchObject({ code: 'OUTFLOW_HOLD' });
    expect(await locked(u)).toBe('0');
  });

  it('meets a deep-reorg freeze: refused (WITHDRAW_FROZEN), nothing locked', async () => {
    const { u, methodId } = await seller();
    const alert = await h.db
      .insertInto('reorg_alerts')
      .values({ network: 'ethereum', fork_block: '100', deposits: 1, created_at: h.clock.now() })
      .returning('id')
      .executeTakeFirstOrThrow();
    await h.db
      .insertInto('withdrawal_freezes')
      .values({ user_id: u.user.id, alert_id: alert.id, created_at: h.clock.now() })
      .execute();
    const frozen = await place(u, methodId, { fundPassword: FUND_PASSWORD, emailCode: await code(u, 'withdraw') });
    expect(frozen.statusCode).toBe(423);
    expect(frozen.json()).toMatchObject({ code: 'WITHDRAW_FROZEN' });
    expect(await locked(u)).toBe('0');
  });

  it('adding a payout method takes the fund password', async () => {
    const { u } = await seller();
    const pix = { kind: 'pix', keyType: 'email', key: 'other@example.com', holder: 'Other' };
    const bare = await api(u.cookie, 'POST', '/api/payment-methods', pix);
    expect(bare.statusCode).toBe(400);
    const wrong = await api(u.cookie, 'POST', '/api/payment-methods', { ...pix, fundPassword: '111111' });
    expect(wrong.json()).toMatchObject({ code: 'WRONG_FUND_PASSWORD' });
    const none = await registerUser(h);
    const unset = await api(none.cookie, 'POST', '/api/payment-methods', { ...pix, fundPassword: FUND_PASSWORD });
    expect(unset.json()).toMatchObject({ code: 'FUND_PASSWORD_NOT_SET' });
  });
});
