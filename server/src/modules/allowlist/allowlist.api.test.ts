import { describe, expect, it } from 'vitest';
import { login, nextIp, sessionCookie } from '../auth/test-helpers.ts';
import {
  balance,
  ETH_ADDRESS,
  fund,
  get,
  key,
  newUser,
  post,
  transferCode,
  useWalletHarness,
  type WalletUser,
  withdrawCode,
} from '../withdrawals/test-helpers.ts';
import { createAllowlistService } from './service.ts';

/**
 * Issue 31, withdrawal allowlist: with it on, withdrawals and sends go only to trusted address-book
 * entries whose 24 h hold has ended; turning it off waits the same hold; turning it on or off needs a
 * re-authentication within 5 minutes. Real PostgreSQL, the harness's movable clock.
 */
const h = useWalletHarness();
const HOUR = 3_600_000;
const MINUTE = 60_000;
const OTHER_ETH = '0x8ba1f109551bD432803012645Ac136ddd64DBA72';
const THIRD_ETH = '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359';

const put = (user: WalletUser, url: string, payload: object) =>
  h.app.inject({ method: 'PUT', url, remoteAddress: nextIp(), headers: { cookie: user.cookie }, payload });

const client = (user: WalletUser) => ({ ip: '127.0.0.1', userAgent: null, userId: user.user.id, sessionId: null });

async function reauth(user: WalletUser) {
  const res = await post(h, user, '/api/me/security/reauth', { password: user.password });
  expect(res.statusCode, res.body).toBe(204);
}

async function setAllowlist(user: WalletUser, on: boolean) {
  await reauth(user);
  const res = await put(user, '/api/me/security/allowlist', { on });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { on: boolean; offAt: string | null; holdHours: number };
}

async function withdraw(user: WalletUser, address = ETH_ADDRESS) {
  return post(h, user, '/api/wallet/withdrawals', {
    coin: 'USDT',
    network: 'ethereum',
    address,
    amountMinor: '20000000',
    idempotencyKey: key(),
    emailCode: await withdrawCode(h, user),
  });
}

async function send(user: WalletUser, to: object) {
  return post(h, user, '/api/wallet/sends', {
    coin: 'USDT',
    amountMinor: '1500000',
    idempotencyKey: key(),
    emailCode: await transferCode(h, user),
    ...to,
  });
}

async function addEntry(user: WalletUser, address = ETH_ADDRESS): Promise<string> {
  const res = await post(h, user, '/api/wallet/address-book', {
    name: 'Cold',
    walletType: 'personal',
    network: 'ethereum',
    address,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id;
}

/** Moves the clock, then signs in again (the old session idled out), keeping the user's balance. */
async function later(user: WalletUser, ms: number): Promise<WalletUser> {
  h.clock.advance(ms);
  return { ...user, cookie: sessionCookie(await login(h, user.username, user.password)) };
}

async function funded(): Promise<WalletUser> {
  const u = await newUser(h);
  await fund(h, u.user.id, 'USDT', 100_000_000n);
  return u;
}

describe('withdrawal allowlist', () => {
  it('turning it on needs a re-authentication within 5 minutes (REAUTH_REQUIRED), then is on at once', async () => {
    const u = await funded();
    expect((await get(h, u, '/api/me/security/allowlist')).json()).toEqual({ on: false, offAt: null, holdHours: 24 });
    h.clock.advance(6 * MINUTE);
    const refused = await put(u, '/api/me/security/allowlist', { on: true });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('REAUTH_REQUIRED');
    expect((await get(h, u, '/api/me/security/allowlist')).json().on).toBe(false);
    expect(await setAllowlist(u, true)).toEqual({ on: true, offAt: null, holdHours: 24 });
    h.clock.advance(6 * MINUTE);
    expect((await put(u, '/api/me/security/allowlist', { on: false })).json().code).toBe('REAUTH_REQUIRED');
  });

  it('with it on, withdrawals and sends to anything but a trusted entry are refused, nothing moves', async () => {
    const [a, b] = [await funded(), await newUser(h)];
    await h.db
      .insertInto('deposit_addresses')
      .values({ user_id: b.user.id, network: 'ethereum', address: OTHER_ETH, derivation_index: 9_100 })
      .execute();
    await setAllowlist(a, true);
    await addEntry(a); // in the book, not trusted
    for (const res of [
      await withdraw(a),
      await send(a, { recipientKind: 'email', recipient: b.email }),
      await send(a, { recipientKind: 'address', network: 'ethereum', recipient: OTHER_ETH }),
    ]) {
      expect(res.statusCode, res.body).toBe(403);
      expect(res.json().code).toBe('ADDRESS_NOT_ALLOWLISTED');
    }
    expect(await balance(h, a, 'USDT')).toEqual({ available: 100_000_000n, locked: 0n });
    expect((await balance(h, b, 'USDT')).available).toBe(0n);
    // The refusal came before the e-mail code was spent: the same code still works elsewhere.
    const codes = await h.db
      .selectFrom('verification_codes')
      .select('consumed_at')
      .where('email', '=', a.email)
      .where('purpose', 'in', ['withdraw', 'transfer'])
      .execute();
    expect(codes.every((c) => c.consumed_at === null)).toBe(true);
  });

  it('a trusted entry is refused at 23:59 of its hold (ADDRESS_ALLOWLIST_HOLD, until) and usable at 24:01', async () => {
    const [first, b] = [await funded(), await newUser(h)];
    await h.db
      .insertInto('deposit_addresses')
      .values({ user_id: b.user.id, network: 'ethereum', address: THIRD_ETH, derivation_index: 9_101 })
      .execute();
    await setAllowlist(first, true);
    const [id, other] = [await addEntry(first), await addEntry(first, THIRD_ETH)];
    const trustedAt = h.clock.now().getTime();
    const trusted = await put(first, `/api/wallet/address-book/${id}/trusted`, { trusted: true });
    expect(trusted.json()).toEqual({ id, trusted: true, usableAt: new Date(trustedAt + 24 * HOUR).toISOString() });
    await put(first, `/api/wallet/address-book/${other}/trusted`, { trusted: true });
    // Trusting again does not restart the hold.
    h.clock.advance(MINUTE);
    const again = await put(first, `/api/wallet/address-book/${id}/trusted`, { trusted: true });
    expect(again.json().usableAt).toBe(trusted.json().usableAt);

    // 23:59 once the e-mail code's second has passed.
    const a = await later(first, trustedAt + 23 * HOUR + 59 * MINUTE - 1000 - h.clock.now().getTime());
    const held = await withdraw(a);
    expect(held.statusCode).toBe(423);
    expect(held.json()).toMatchObject({ code: 'ADDRESS_ALLOWLIST_HOLD', details: { until: trusted.json().usableAt } });
    expect(held.json().details.retryAfterSeconds).toBeGreaterThan(0);
    expect(held.json().details.retryAfterSeconds).toBeLessThanOrEqual(60);
    const heldSend = await send(a, { recipientKind: 'address', network: 'ethereum', recipient: THIRD_ETH });
    expect(heldSend.json().code).toBe('ADDRESS_ALLOWLIST_HOLD');
    const entries = (await get(h, a, '/api/wallet/address-book')).json().entries;
    expect(entries.find((e: { id: string }) => e.id === id)).toMatchObject({
      trusted: true,
      usableAt: trusted.json().usableAt,
    });

    h.clock.advance(2 * MINUTE); // 24:01
    const ok = await withdraw(a);
    expect(ok.statusCode, ok.body).toBe(201);
    const sent = await send(a, { recipientKind: 'address', network: 'ethereum', recipient: THIRD_ETH });
    expect(sent.statusCode, sent.body).toBe(201);
    expect((await send(a, { recipientKind: 'email', recipient: b.email })).json().code).toBe('ADDRESS_NOT_ALLOWLISTED');

    // Untrusting is at once; editing a trusted entry to another address restarts its hold.
    await put(a, `/api/wallet/address-book/${other}/trusted`, { trusted: false });
    expect((await send(a, { recipientKind: 'address', network: 'ethereum', recipient: THIRD_ETH })).statusCode).toBe(
      403,
    );
    const moved = await put(a, `/api/wallet/address-book/${id}`, {
      name: 'Cold',
      walletType: 'personal',
      network: 'ethereum',
      address: '0x52908400098527886E0F7030069857D2E4169EE7',
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(new Date(moved.json().usableAt).getTime()).toBe(h.clock.now().getTime() + 24 * HOUR);
  });

  it('turning it off takes effect after the hold: refused at 23:59, allowed at 24:01; a repeat does not move it', async () => {
    const first = await funded();
    await setAllowlist(first, true);
    const requestedAt = h.clock.now().getTime();
    await reauth(first);
    const off = await put(first, '/api/me/security/allowlist', { on: false });
    const offAt = new Date(h.clock.now().getTime() + 24 * HOUR).toISOString();
    expect(off.json()).toEqual({ on: true, offAt, holdHours: 24 });
    const next = await later(first, HOUR);
    expect((await setAllowlist(next, false)).offAt).toBe(offAt);

    const a = await later(next, requestedAt + 23 * HOUR + 58 * MINUTE - h.clock.now().getTime());
    const held = await withdraw(a);
    expect(held.json().code).toBe('ADDRESS_NOT_ALLOWLISTED');
    expect((await get(h, a, '/api/me/security/allowlist')).json()).toMatchObject({ on: true, offAt });
    h.clock.advance(2 * MINUTE);
    const allowed = await withdraw(a);
    expect(allowed.statusCode, allowed.body).toBe(201);
    expect((await get(h, a, '/api/me/security/allowlist')).json()).toEqual({ on: false, offAt: null, holdHours: 24 });
  });

  it('turning it on again cancels a pending turn-off', async () => {
    const a = await funded();
    await setAllowlist(a, true);
    expect((await setAllowlist(a, false)).offAt).not.toBeNull();
    expect(await setAllowlist(a, true)).toEqual({ on: true, offAt: null, holdHours: 24 });
    const b = await later(a, 25 * HOUR);
    expect((await withdraw(b)).json().code).toBe('ADDRESS_NOT_ALLOWLISTED');
  });

  it('concurrent toggles apply one at a time: one turn-off recorded, never off at once', async () => {
    const a = await funded();
    await setAllowlist(a, true);
    await reauth(a);
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) => put(a, '/api/me/security/allowlist', { on: i % 3 === 0 })),
    );
    for (const res of answers) {
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().on).toBe(true);
    }
    const rows = await h.db.selectFrom('withdrawal_allowlists').selectAll().where('user_id', '=', a.user.id).execute();
    expect(rows).toHaveLength(1);
    const offAt = rows[0]?.off_at;
    if (offAt) expect(offAt.getTime()).toBe(h.clock.now().getTime() + 24 * HOUR);
    expect((await withdraw(a)).json().code).toBe('ADDRESS_NOT_ALLOWLISTED');

    // Only off requests at once: exactly one turn-off is recorded.
    h.clock.advance(10_000);
    await setAllowlist(a, true);
    await Promise.all(Array.from({ length: 8 }, () => put(a, '/api/me/security/allowlist', { on: false })));
    const offs = await h.db
      .selectFrom('audit_events')
      .select('details')
      .where('user_id', '=', a.user.id)
      .where('event', '=', 'allowlist_off_requested')
      .where('occurred_at', '=', h.clock.now())
      .execute();
    expect(offs).toHaveLength(1);
  });

  it('a config change of the hold applies to entries trusted after it, not to holds already running', async () => {
    const a = await funded();
    const id = await addEntry(a);
    const long = createAllowlistService({ db: h.db, now: h.clock.now, holdMs: 48 * HOUR });
    const short = createAllowlistService({ db: h.db, now: h.clock.now, holdMs: 24 * HOUR });
    const at = h.clock.now().getTime();
    expect((await long.setTrusted(client(a), a.user.id, id, true)).usableAt).toBe(
      new Date(at + 48 * HOUR).toISOString(),
    );
    expect((await short.setTrusted(client(a), a.user.id, id, true)).usableAt).toBe(
      new Date(at + 48 * HOUR).toISOString(),
    );
    expect((await short.status(a.user.id)).holdHours).toBe(24);
  });

  it('another user cannot trust my entry (404)', async () => {
    const [a, b] = [await funded(), await newUser(h)];
    const id = await addEntry(a);
    expect((await put(b, `/api/wallet/address-book/${id}/trusted`, { trusted: true })).statusCode).toBe(404);
  });
});
