import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, login, receiveCode, registerUser, sessionCookie, useAuthHarness } from '../auth/test-helpers.ts';
import { createLedgerService } from '../ledger/service.ts';
import type { MoonPayClient } from './moonpay/client.ts';
import type { SandboxRamp } from './sandbox/sandbox-server.ts';
import { setCountry, startTestProvider } from './test-helpers.ts';

/**
 * Review of issue 31 (see /work/wt/review-31bc.md): how a sell meets the withdrawal allowlist and the
 * self-service freeze. Each `it.fails` reproduces a finding on the current code; turn it into `it`
 * once fixed.
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

describe('review 31bc: sells, the allowlist and the freeze', () => {
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

  const reauth = async (u: User) => {
    const res = await api(u.cookie, 'POST', '/api/me/security/reauth', { password: u.password });
    expect(res.statusCode, res.body).toBe(204);
  };

  it.fails('HIGH F1: with the allowlist on, a sell to a payout method added a minute ago goes through (allowlist bypass)', async () => {
    const { u, methodId } = await seller();
    await reauth(u);
    const on = await h.app.inject({
      method: 'PUT',
      url: '/api/me/security/allowlist',
      headers: { cookie: u.cookie },
      payload: { on: true },
    });
    expect(on.statusCode, on.body).toBe(200);
    // A thief holding what a withdrawal needs (fund password, mailbox) adds a payout method of their
    // own and sells at once: no trusted entry, no 24 h hold. A withdrawal with the same credentials
    // is refused with ADDRESS_NOT_ALLOWLISTED.
    h.clock.advance(60_000);
    const placed = await place(u, methodId, { fundPassword: FUND_PASSWORD, emailCode: await code(u, 'withdraw') });
    expect(placed.statusCode, placed.body).not.toBe(200);
    expect(await locked(u)).toBe('0');
  });

  it.fails('MEDIUM F2: freezing leaves a pending sell open (its coins locked, its checkout link live), unlike "sign out others"', async () => {
    const { u, methodId } = await seller();
    const placed = await place(u, methodId, { fundPassword: FUND_PASSWORD, emailCode: await code(u, 'withdraw') });
    expect(placed.statusCode, placed.body).toBe(200);
    const frozen = await api(u.cookie, 'POST', '/api/me/security/freeze', {});
    expect(frozen.statusCode, frozen.body).toBe(204);
    const order = await h.db
      .selectFrom('ramp_orders')
      .select(['state'])
      .where('id', '=', placed.json().id)
      .executeTakeFirstOrThrow();
    // Password change, reset and "sign out others" run onSessionsEnded (cancelPendingSells): expired.
    expect(order.state).toBe('expired');
  });
});
