import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Harness,
  login,
  receiveCode,
  registerUser,
  STRONG_PASSWORD,
  sessionCookie,
  useAuthHarness,
  withDevice,
} from '../auth/test-helpers.ts';
import { createLedgerService } from '../ledger/service.ts';
import type { MoonPayClient } from './moonpay/client.ts';
import type { SandboxRamp } from './sandbox/sandbox-server.ts';
import { setCountry, startTestProvider } from './test-helpers.ts';

/**
 * Review of issue 38, item 2: a pending sell's signed checkout link lets whoever opens it complete
 * the sell at the provider. A stolen session must not read it back from GET /ramp/orders, and the
 * owner ending other sessions (or changing/resetting the password) ends the pending sells with them.
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

describe("a pending sell's checkout link", () => {
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

  /** A Brazilian seller with 1 ETH, a fund password set over a day ago, an active chat-app method. */
  async function seller() {
    const u = await registerUser(h);
    await setCountry(h.db, u.user.id, 'BR');
    await api(u.cookie, 'POST', '/api/me/fund-password', {
      code: await code(u, 'fund_password'),
      fundPassword: FUND_PASSWORD,
      confirmFundPassword: FUND_PASSWORD,
    });
    h.clock.advance(25 * 3_600_000);
    u.cookie = sessionCookie(await login(h, u.username, u.password));
    await createLedgerService({ db: h.db, now: h.clock.now }).deposit({
      idempotencyKey: `fund:${u.user.id}`,
      userId: u.user.id,
      asset: 'ETH',
      amountMinor: 10n ** 18n,
    });
    const method = await api(u.cookie, 'POST', '/api/payment-methods', {
      kind: 'chat_app',
      app: 'whatsapp',
      handle: '+5511987654321',
      fundPassword: FUND_PASSWORD,
    });
    expect(method.statusCode).toBe(201);
    return { u, methodId: method.json().id as string };
  }
  async function placeSell(u: User, methodId: string, idempotencyKey = randomUUID()) {
    const quote = await api(u.cookie, 'POST', '/api/ramp/quotes', {
      side: 'sell',
      coin: 'ETH',
      network: 'ethereum',
      amountMinor: '100000000000000000',
      method: 'pix',
    });
    const placed = await api(u.cookie, 'POST', '/api/ramp/orders', {
      quoteId: quote.json().id,
      termsAccepted: true,
      payoutMethodId: methodId,
      idempotencyKey,
      fundPassword: FUND_PASSWORD,
      emailCode: await code(u, 'withdraw'),
    });
    expect(placed.statusCode).toBe(200);
    return placed.json() as { id: string; state: string; reason: string | null; checkoutUrl: string | null };
  }
  const locked = async (u: User) =>
    (await api(u.cookie, 'GET', '/api/me/balances')).json().find((b: { asset: string }) => b.asset === 'ETH')
      ?.lockedMinor;
  const order = async (u: User, id: string) => (await api(u.cookie, 'GET', `/api/ramp/orders/${id}`)).json();

  it('is answered once, by the POST that placed the sell: GET /ramp/orders and /:id answer none', async () => {
    const { u, methodId } = await seller();
    // The thief's copy of the owner's session cookie.
    const thief = u.cookie;
    const placed = await placeSell(u, methodId);
    expect(placed.state).toBe('pending');
    expect(placed.checkoutUrl).toMatch(/^http/);
    const one = await api(thief, 'GET', `/api/ramp/orders/${placed.id}`);
    expect(one.statusCode).toBe(200);
    expect(one.json()).toMatchObject({ id: placed.id, state: 'pending', checkoutUrl: null });
    const list = await api(thief, 'GET', '/api/ramp/orders');
    expect(list.json().items.map((o: { checkoutUrl: string | null }) => o.checkoutUrl)).toEqual([null]);
  });

  it('the owner cancels a pending sell: expired (cancelled_in_app), coins unlocked; then it cannot be cancelled again', async () => {
    const { u, methodId } = await seller();
    const placed = await placeSell(u, methodId);
    expect(await locked(u)).not.toBe('0');
    const other = await registerUser(h);
    const foreign = await api(other.cookie, 'POST', `/api/ramp/orders/${placed.id}/cancel`);
    expect(foreign.statusCode).toBe(404);
    const cancelled = await api(u.cookie, 'POST', `/api/ramp/orders/${placed.id}/cancel`);
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json()).toMatchObject({ state: 'expired', reason: 'cancelled_in_app', checkoutUrl: null });
    expect(await locked(u)).toBe('0');
    const again = await api(u.cookie, 'POST', `/api/ramp/orders/${placed.id}/cancel`);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'CONFLICT' });
    // The provider's checkout done after the cancel pays nothing out: the event is stale.
    const late = await api(u.cookie, 'POST', `/api/ramp/orders/${placed.id}/sell-deposit`, {
      transactionId: randomUUID(),
    });
    expect(late.statusCode).not.toBe(200);
    expect((await order(u, placed.id)).state).toBe('expired');
  });

  it('"sign out others" ends the pending sells (sessions_ended) and unlocks their coins', async () => {
    const { u, methodId } = await seller();
    const placed = await placeSell(u, methodId);
    const revoked = await api(u.cookie, 'POST', '/api/me/sessions/revoke-others');
    expect(revoked.statusCode).toBe(200);
    expect(await order(u, placed.id)).toMatchObject({ state: 'expired', reason: 'sessions_ended' });
    expect(await locked(u)).toBe('0');
  });

  it('a password change ends the pending sells too', async () => {
    const { u, methodId } = await seller();
    const first = await placeSell(u, methodId);
    const changed = await api(u.cookie, 'POST', '/api/me/password', {
      oldPassword: u.password,
      password: `${STRONG_PASSWORD}x`,
      confirmPassword: `${STRONG_PASSWORD}x`,
    });
    expect(changed.statusCode).toBe(204);
    expect(await order(u, first.id)).toMatchObject({ state: 'expired', reason: 'sessions_ended' });
    expect(await locked(u)).toBe('0');
  });

  it('a password reset (signed out, by the mailbox) ends the pending sells with every session', async () => {
    const { u, methodId } = await seller();
    const second = await placeSell(u, methodId);
    const reset = await h.app.inject({
      method: 'POST',
      url: '/api/auth/password/reset',
      // From the browser the account registered in: it stays known (the others are forgotten).
      headers: { cookie: withDevice(u.username) },
      payload: {
        email: u.email,
        code: await receiveCode(h, { purpose: 'reset_password', email: u.email }),
        password: `${STRONG_PASSWORD}y`,
        confirmPassword: `${STRONG_PASSWORD}y`,
      },
    });
    expect(reset.statusCode).toBe(204);
    const row = await h.db.selectFrom('ramp_orders').selectAll().where('id', '=', second.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ state: 'expired', state_reason: 'sessions_ended' });
    u.cookie = sessionCookie(await login(h, u.username, `${STRONG_PASSWORD}y`));
    expect(await locked(u)).toBe('0');
  });
});
