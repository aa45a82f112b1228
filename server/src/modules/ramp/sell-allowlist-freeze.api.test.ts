import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, login, receiveCode, registerUser, sessionCookie, useAuthHarness } from '../auth/test-helpers.ts';
import { createLedgerService } from '../ledger/service.ts';
import type { MoonPayClient } from './moonpay/client.ts';
import type { SandboxRamp } from './sandbox/sandbox-server.ts';
import { setCountry, startTestProvider } from './test-helpers.ts';

/**
 * How a sell meets the withdrawal allowlist and the self-service freeze (issue 31; review findings F1
 * and F2): a payout method is a destination like an address, with the allowlist's hold, and a freeze
 * ends pending sells as every other session ending does.
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

describe('sells, the allowlist and the freeze', () => {
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

  it('F1: with the allowlist on, a sell to a payout method added a minute ago is refused with its hold', async () => {
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
    expect(placed.statusCode, placed.body).toBe(423);
    expect(placed.json().code).toBe('PAYOUT_METHOD_ALLOWLIST_HOLD');
    const listed = (await api(u.cookie, 'GET', '/api/payment-methods')).json().items[0];
    expect(placed.json().details.until).toBe(listed.usableAt);
    expect(await locked(u)).toBe('0');
    // The owner was told of the new method, with a one-click freeze link.
    const mails = await h.db.selectFrom('outbox').select(['text']).where('to_address', '=', u.email).execute();
    expect(mails.some((m) => m.text.includes('收款方式') && /\/freeze#t=/.test(m.text))).toBe(true);
  });

  it('F1: the hold ends at 24:00 (refused at 23:59); switching the method off and on starts it over', async () => {
    const { u, methodId } = await seller();
    await reauth(u);
    expect(
      (
        await h.app.inject({
          method: 'PUT',
          url: '/api/me/security/allowlist',
          headers: { cookie: u.cookie },
          payload: { on: true },
        })
      ).statusCode,
    ).toBe(200);
    const usableAt = Date.parse((await api(u.cookie, 'GET', '/api/payment-methods')).json().items[0].usableAt);
    h.clock.set(new Date(usableAt - 61_000));
    u.cookie = sessionCookie(await login(h, u.username, u.password));
    const early = await place(u, methodId, { fundPassword: FUND_PASSWORD, emailCode: await code(u, 'withdraw') });
    expect(early.statusCode, early.body).toBe(423);
    h.clock.set(new Date(usableAt));
    u.cookie = sessionCookie(await login(h, u.username, u.password));
    const off = await h.app.inject({
      method: 'PUT',
      url: `/api/payment-methods/${methodId}/active`,
      headers: { cookie: u.cookie },
      payload: { active: false },
    });
    expect(off.statusCode, off.body).toBe(200);
    const on = await h.app.inject({
      method: 'PUT',
      url: `/api/payment-methods/${methodId}/active`,
      headers: { cookie: u.cookie },
      payload: { active: true, fundPassword: FUND_PASSWORD },
    });
    expect(on.statusCode, on.body).toBe(200);
    expect(Date.parse(on.json().usableAt)).toBe(usableAt + 24 * 3_600_000);
    const again = await place(u, methodId, { fundPassword: FUND_PASSWORD, emailCode: await code(u, 'withdraw') });
    expect(again.json().code).toBe('PAYOUT_METHOD_ALLOWLIST_HOLD');
    h.clock.set(new Date(usableAt + 24 * 3_600_000));
    u.cookie = sessionCookie(await login(h, u.username, u.password));
    const placed = await place(u, methodId, { fundPassword: FUND_PASSWORD, emailCode: await code(u, 'withdraw') });
    expect(placed.statusCode, placed.body).toBe(200);
  });

  it('F2: freezing ends a pending sell (its coins unlocked, its checkout link dead), as "sign out others" does', async () => {
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
    // As a password change, reset and "sign out others" do (cancelPendingSells): expired, lock released.
    expect(order.state).toBe('expired');
    u.cookie = sessionCookie(await login(h, u.username, u.password));
    expect(await locked(u)).toBe('0');
  });
});
