import { describe, expect, it } from 'vitest';
import { appendAudit } from '../audit/repository.ts';
import {
  login,
  nextIp,
  registerUser,
  STRONG_PASSWORD,
  sessionCookie,
  useAuthHarness,
  withDevice,
} from '../auth/test-helpers.ts';
import { OUTFLOW_HOLD_MS } from '../withdrawals/outflow-holds.ts';
import { securityLocks } from './overview.ts';
import { totpCode } from './totp.ts';

/** Issue 31, visibility: GET /api/me/security/overview and /locks, one test per lock. */
const h = useAuthHarness();
const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

const get = (cookie: string, what: 'overview' | 'locks') =>
  h.app.inject({ method: 'GET', url: `/api/me/security/${what}`, headers: { cookie } });

async function signedIn() {
  const user = await registerUser(h);
  const res = await h.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    remoteAddress: '8.8.8.8',
    // From the browser that registered (its device cookie): a known device, no e-mail confirmation.
    headers: { 'user-agent': CHROME, cookie: withDevice(user.email) },
    payload: { identifier: user.email, password: STRONG_PASSWORD },
  });
  return { ...user, cookie: sessionCookie(res) };
}

describe('security overview', () => {
  it('a new account: no factor, allowlist off, no lock, its own last sign-in, and what to do next', async () => {
    const user = await signedIn();
    // Another user's attempts never show in this one's overview.
    const other = await registerUser(h);
    await login(h, other.email, 'Wrong-pass-1', nextIp());
    const res = await get(user.cookie, 'overview');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      factors: { totp: false, passkeys: 0, recoveryCodesLeft: 0 },
      allowlist: { on: false, offAt: null },
      locks: [],
      lastSignIn: {
        at: expect.any(String),
        ip: '8.8.8.8',
        device: { browser: 'Chrome 131', os: 'Windows 10', platform: 'desktop' },
        place: { country: 'US', region: null, city: null },
        method: 'password',
      },
      failedSinceLastSignIn: 0,
      next: ['add_passkey', 'add_authenticator', 'turn_on_allowlist'],
    });
    // Failed attempts after the last sign-in are counted.
    await login(h, user.email, 'Wrong-pass-1', nextIp());
    expect((await get(user.cookie, 'overview')).json().failedSinceLastSignIn).toBe(1);
    expect((await get('', 'overview')).statusCode).toBe(401);
  });

  it('the hold after a security change: its reason and end, gone after 24 h', async () => {
    const user = await signedIn();
    const at = h.clock.now();
    await appendAudit(h.db, { event: 'password_changed', at, userId: user.user.id });
    h.clock.advance(60_000);
    await appendAudit(h.db, { event: 'passkey_added', at: h.clock.now(), userId: user.user.id });
    const until = new Date(h.clock.now().getTime() + OUTFLOW_HOLD_MS).toISOString();
    const expected = [{ kind: 'outflow_hold', reason: 'passkey_added', since: null, until }];
    expect((await get(user.cookie, 'locks')).json()).toEqual({ locks: expected });
    expect((await get(user.cookie, 'overview')).json().locks).toEqual(expected);
    // At 23:59 it holds, at 24:00 and a millisecond it is gone (the session has idled out by then).
    h.clock.advance(OUTFLOW_HOLD_MS - 60_000);
    expect(await securityLocks(h.db, user.user.id, h.clock.now())).toHaveLength(1);
    h.clock.advance(60_001);
    expect(await securityLocks(h.db, user.user.id, h.clock.now())).toEqual([]);
  });

  it('a freeze (with an unfreeze under way) and a deep-reorg hold, and the allowlist turning off', async () => {
    const user = await signedIn();
    const now = h.clock.now();
    const thawsAt = new Date(now.getTime() + OUTFLOW_HOLD_MS);
    await h.db
      .insertInto('account_freezes')
      .values({ user_id: user.user.id, frozen_at: now, via: 'settings', unfreeze_requested_at: now, thaws_at: thawsAt })
      .execute();
    const alert = await h.db
      .insertInto('reorg_alerts')
      .values({
        network: 'ethereum',
        fork_block: '1',
        deposits: 1,
        created_at: now,
        resolved_at: null,
        resolution: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await h.db
      .insertInto('withdrawal_freezes')
      .values({ user_id: user.user.id, alert_id: alert.id, created_at: now })
      .execute();
    const offAt = new Date(now.getTime() + 3_600_000);
    await h.db
      .insertInto('withdrawal_allowlists')
      .values({ user_id: user.user.id, enabled_at: now, off_at: offAt, updated_at: now })
      .execute();
    const body = (await get(user.cookie, 'overview')).json();
    expect(body.locks).toEqual([
      { kind: 'account_frozen', reason: null, since: now.toISOString(), until: thawsAt.toISOString() },
      { kind: 'reorg_hold', reason: null, since: null, until: null },
    ]);
    expect(body.allowlist).toEqual({ on: true, offAt: offAt.toISOString() });
    // A pending turn-off still suggests keeping it on.
    expect(body.next).toContain('turn_on_allowlist');
    await h.db
      .updateTable('reorg_alerts')
      .set({ resolved_at: now, resolution: 'test' })
      .where('id', '=', alert.id)
      .execute();
    expect((await get(user.cookie, 'locks')).json().locks.map((l: { kind: string }) => l.kind)).toEqual([
      'account_frozen',
    ]);
  });

  it('a sign-in waiting for its second factor learns which kinds the account has; nobody else does', async () => {
    const user = await signedIn();
    const kinds = (cookie: string) =>
      h.app.inject({ method: 'GET', url: '/api/auth/login/factor/kinds', headers: { cookie } });
    expect((await kinds(user.cookie)).statusCode).toBe(401);
    const start = await h.app.inject({
      method: 'POST',
      url: '/api/me/security/totp',
      headers: { cookie: user.cookie },
    });
    const { secret } = start.json() as { secret: string };
    await h.app.inject({
      method: 'POST',
      url: '/api/me/security/totp/confirm',
      headers: { cookie: user.cookie },
      payload: { code: totpCode(secret, h.clock.now()) },
    });
    const pending = await login(h, user.email, STRONG_PASSWORD, nextIp());
    expect(pending.statusCode).toBe(202);
    const res = await kinds(sessionCookie(pending));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ totp: true, passkey: false, recoveryCode: true });
  });
});
