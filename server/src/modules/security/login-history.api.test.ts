import { describe, expect, it } from 'vitest';
import {
  login,
  nextIp,
  registerUser,
  STRONG_PASSWORD,
  sessionCookie,
  useAuthHarness,
  withDevice,
} from '../auth/test-helpers.ts';
import { sweep } from '../retention/retention.ts';
import { listLoginAttempts } from './login-history.ts';
import { totpCode } from './totp.ts';

const h = useAuthHarness();
const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

const logins = (cookie: string, query = '') =>
  h.app.inject({ method: 'GET', url: `/api/me/security/logins${query}`, headers: { cookie } });

describe('login history', () => {
  it('lists every attempt on the account (result, method, parsed device, IP), newest first, paged, 90 days', async () => {
    const user = await registerUser(h);
    const signIn = (password: string) =>
      h.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        remoteAddress: '203.0.113.7',
        headers: { 'user-agent': CHROME, cookie: withDevice(user.email) },
        payload: { identifier: user.email, password },
      });
    expect((await signIn('Wrong-pass-1')).statusCode).toBe(401);
    const ok = await signIn(STRONG_PASSWORD);
    const cookie = sessionCookie(ok);
    const first = (await logins(cookie)).json();
    expect(first.logins.map((l: { result: string }) => l.result)).toEqual(['succeeded', 'failed']);
    expect(first.logins[0]).toMatchObject({
      ip: '203.0.113.7',
      method: 'password',
      device: { browser: 'Chrome 131', os: 'Windows 10', platform: 'desktop' },
    });

    // With an app on: the password step is "factor pending", then a wrong and a right code.
    const start = await h.app.inject({ method: 'POST', url: '/api/me/security/totp', headers: { cookie } });
    const { secret } = start.json() as { secret: string };
    await h.app.inject({
      method: 'POST',
      url: '/api/me/security/totp/confirm',
      headers: { cookie },
      payload: { code: totpCode(secret, h.clock.now()) },
    });
    h.clock.advance(30_000);
    const pending = sessionCookie(await login(h, user.email, STRONG_PASSWORD, nextIp()));
    const factor = (code: string) =>
      h.app.inject({
        method: 'POST',
        url: '/api/auth/login/factor',
        headers: { cookie: pending },
        payload: { totpCode: code },
      });
    const right = totpCode(secret, h.clock.now());
    expect((await factor(right === '000000' ? '111111' : '000000')).statusCode).toBe(400);
    const done = await factor(right);
    const all = (await logins(sessionCookie(done))).json();
    expect(all.logins.slice(0, 3).map((l: { method: string; result: string }) => `${l.method}:${l.result}`)).toEqual([
      'password+totp:succeeded',
      'password+totp:factor_failed',
      'password:factor_pending',
    ]);

    // Paged: two at a time, following nextBefore to the end.
    const seen: string[] = [];
    let before: string | null = null;
    do {
      const page: { logins: { id: string }[]; nextBefore: string | null } = (
        await logins(sessionCookie(done), `?limit=2${before ? `&before=${before}` : ''}`)
      ).json();
      expect(page.logins.length).toBeLessThanOrEqual(2);
      seen.push(...page.logins.map((l: { id: string }) => l.id));
      before = page.nextBefore;
    } while (before);
    expect(seen).toEqual(all.logins.map((l: { id: string }) => l.id));

    // 90 days on, only the newer attempt is listed (older rows stay until retention removes them).
    h.clock.advance(91 * 86_400_000);
    expect((await login(h, user.email, STRONG_PASSWORD, nextIp())).statusCode).toBe(202);
    const recent = await listLoginAttempts(h.db, user.user.id, h.clock.now(), { limit: 50 });
    expect(recent.logins.map((l) => l.result)).toEqual(['factor_pending']);
  });

  it('records the approximate place of a public IP (offline data) and none for a private one', async () => {
    const user = await registerUser(h);
    const from = (ip: string) =>
      h.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        remoteAddress: ip,
        headers: { 'user-agent': CHROME, cookie: withDevice(user.email) },
        payload: { identifier: user.email, password: STRONG_PASSWORD },
      });
    await from('10.1.2.3');
    const cookie = sessionCookie(await from('8.8.8.8'));
    const rows = (await logins(cookie)).json().logins;
    expect(rows[0]).toMatchObject({ ip: '8.8.8.8', place: { country: 'US' } });
    expect(rows[1]).toMatchObject({ ip: '10.1.2.3', place: { country: null, region: null, city: null } });
  });

  it('retention deletes attempts older than 90 days and keeps the rest', async () => {
    const user = await registerUser(h);
    const cookie = sessionCookie(await login(h, user.email, STRONG_PASSWORD, nextIp()));
    const at = h.clock.now().getTime();
    const old = await h.db
      .insertInto('login_attempts')
      .values(
        [89, 90.01, 200].map((days) => ({
          user_id: user.user.id,
          occurred_at: new Date(at - days * 86_400_000),
          ip: null,
          user_agent: null,
          method: 'password' as const,
          result: 'failed' as const,
        })),
      )
      .returning('id')
      .execute();
    const deleted = await sweep(h.db, h.clock.now(), { batchRows: 1 });
    expect(deleted.login_attempts).toBeGreaterThanOrEqual(2);
    const left = await h.db
      .selectFrom('login_attempts')
      .select('id')
      .where(
        'id',
        'in',
        old.map((r) => r.id),
      )
      .execute();
    expect(left.map((r) => r.id)).toEqual([old[0]?.id]);
    expect((await logins(cookie)).json().logins.length).toBeGreaterThanOrEqual(2);
  });
});

describe('login history, only own rows', () => {
  it("never lists another user's attempts, whatever `before` is given", async () => {
    const mine = await registerUser(h);
    const theirs = await registerUser(h);
    await login(h, theirs.email, 'Wrong-pass-1', nextIp());
    await login(h, theirs.email, STRONG_PASSWORD, nextIp());
    const cookie = sessionCookie(await login(h, mine.email, STRONG_PASSWORD, nextIp()));
    const theirRows = await listLoginAttempts(h.db, theirs.user.id, h.clock.now(), { limit: 50 });
    expect(theirRows.logins.length).toBe(2);
    // Paging from past their newest id still lists only my rows.
    const past = String(BigInt(theirRows.logins[0]?.id ?? '0') + 1000n);
    for (const query of ['', `?before=${past}`]) {
      const ids: string[] = (await logins(cookie, query)).json().logins.map((l: { id: string }) => l.id);
      expect(ids.length).toBeGreaterThan(0);
      expect(ids.filter((id) => theirRows.logins.some((l) => l.id === id))).toEqual([]);
    }
  });
});
