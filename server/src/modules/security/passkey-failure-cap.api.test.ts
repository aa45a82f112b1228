import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { listAudit } from '../audit/repository.ts';
import { login, nextIp, registerUser, STRONG_PASSWORD, useAuthHarness } from '../auth/test-helpers.ts';
import { FAILED_PASSKEY_ROWS_PER_HOUR, recordLoginAttempt, THROTTLED_ROWS_PER_HOUR } from './login-history.ts';
import { passkeyUser } from './passkey-test-helpers.ts';
import { type SoftAuthenticator, unsignedSignature } from './soft-authenticator.ts';

/**
 * A refused passkey answer needs only the victim's credential id (not secret), and no throttle bounds
 * it: the login history keeps FAILED_PASSKEY_ROWS_PER_HOUR of them per hour, the audit log every one.
 */
const h = useAuthHarness();
const HOUR_MS = 3_600_000;

const post = (url: string, cookie: string | undefined, payload?: object) =>
  h.app.inject({
    method: 'POST',
    url,
    remoteAddress: nextIp(),
    ...(cookie ? { headers: { cookie } } : {}),
    ...(payload ? { payload } : {}),
  });

const victim = () => passkeyUser(h);

/** One answer for the victim's credential with a signature nobody made. */
async function forgedAnswer(key: SoftAuthenticator) {
  const options = await post('/api/auth/passkey/options', undefined);
  const header = options.headers['set-cookie'];
  const nonce = String((Array.isArray(header) ? header : [header]).find((c) => /^(__Host-)?pk_nonce=/.test(String(c))));
  const answer = key.authenticate(options.json());
  answer.response.signature = unsignedSignature();
  const res = await post('/api/auth/passkey/login', nonce.split(';')[0], { response: answer });
  expect(res.json().code, res.body).toBe('PASSKEY_REJECTED');
}

const historyOf = (userId: string, result: string) =>
  h.db
    .selectFrom('login_attempts')
    .select(['method', 'result'])
    .where('user_id', '=', userId)
    .where('result', '=', result as never)
    .execute();
const auditedFailures = async (userId: string) =>
  (await listAudit(h.db, { userId })).filter((e) => e.event === 'login_failed' && e.details.method === 'passkey')
    .length;

describe('refused passkey answers in the login history', () => {
  it('30 forged answers in an hour: the cap in the history, every one audited; the next hour writes again', async () => {
    const user = await victim();
    for (let i = 0; i < 30; i++) {
      await forgedAnswer(user.key);
      h.clock.advance(60_000);
    }
    expect(await historyOf(user.user.id, 'failed')).toHaveLength(FAILED_PASSKEY_ROWS_PER_HOUR);
    expect(await auditedFailures(user.user.id)).toBe(30);
    h.clock.advance(HOUR_MS);
    await forgedAnswer(user.key);
    expect(await historyOf(user.user.id, 'failed')).toHaveLength(FAILED_PASSKEY_ROWS_PER_HOUR + 1);
    expect(await auditedFailures(user.user.id)).toBe(31);
  });

  it('a concurrent burst cannot get more than the cap into the history', async () => {
    const user = await victim();
    await Promise.all(Array.from({ length: 2 * FAILED_PASSKEY_ROWS_PER_HOUR }, () => forgedAnswer(user.key)));
    // At most the cap: an attempt that finds the user's lock taken is skipped, never queued.
    const rows = (await historyOf(user.user.id, 'failed')).length;
    expect(rows).toBeGreaterThan(0);
    expect(rows).toBeLessThanOrEqual(FAILED_PASSKEY_ROWS_PER_HOUR);
    expect(await auditedFailures(user.user.id)).toBe(2 * FAILED_PASSKEY_ROWS_PER_HOUR);
  });

  it('a held history lock does not make a capped attempt wait (a burst must not park the pool)', async () => {
    const user = await registerUser(h);
    const attempt = (method: 'passkey' | 'password') =>
      recordLoginAttempt(h.db, {
        userId: user.user.id,
        client: { ip: '203.0.113.9', userAgent: null },
        at: h.clock.now(),
        method,
        result: 'failed',
      });
    const lock = `login_history:${user.user.id}`;
    await h.db.transaction().execute(async (trx) => {
      await sql`select pg_advisory_xact_lock(hashtext(${lock}))`.execute(trx);
      const started = Date.now();
      // Raced against a timer: before, the call queued on the lock, held until this transaction ends.
      const outcome = await Promise.race([
        attempt('passkey').then(() => 'returned'),
        new Promise((resolve) => setTimeout(resolve, 2_000, 'waited')),
      ]);
      expect(outcome).toBe('returned');
      expect(Date.now() - started).toBeLessThan(2_000);
      await attempt('password'); // uncapped kinds take no lock
    });
    const rows = await historyOf(user.user.id, 'failed');
    expect(rows.map((r) => r.method)).toEqual(['password']);
  });

  it('a cloned key (counter went backwards) still shows after a burst filled the cap: once per passkey', async () => {
    const user = await victim();
    for (let i = 0; i < FAILED_PASSKEY_ROWS_PER_HOUR; i++) await forgedAnswer(user.key);
    const options = await post('/api/auth/passkey/options', undefined);
    const header = options.headers['set-cookie'];
    const nonce = String(
      (Array.isArray(header) ? header : [header]).find((c) => /^(__Host-)?pk_nonce=/.test(String(c))),
    );
    const good = await post('/api/auth/passkey/login', nonce.split(';')[0], {
      response: user.key.authenticate(options.json()),
    });
    expect(good.statusCode, good.body).toBeLessThan(300); // the stored counter moves up
    const again = await post('/api/auth/passkey/options', undefined);
    const cookie = String([again.headers['set-cookie']].flat().find((c) => /^(__Host-)?pk_nonce=/.test(String(c))));
    const stale = user.key.authenticate(again.json(), { counter: 1 }); // signed, but behind the stored counter
    const res = await post('/api/auth/passkey/login', cookie.split(';')[0], { response: stale });
    expect(res.json().code, res.body).toBe('PASSKEY_COUNTER_REGRESSED');
    expect(await historyOf(user.user.id, 'failed')).toHaveLength(FAILED_PASSKEY_ROWS_PER_HOUR + 1);
  });

  it('wrong passwords are not capped (the account throttle bounds them); the caps are counted apart', async () => {
    const user = await victim();
    for (let i = 0; i < FAILED_PASSKEY_ROWS_PER_HOUR; i++) await forgedAnswer(user.key);
    const wrong = await login(h, user.email, `${STRONG_PASSWORD}x`, nextIp());
    expect(wrong.statusCode).toBe(401);
    const failed = await historyOf(user.user.id, 'failed');
    expect(failed.filter((r) => r.method === 'password')).toHaveLength(1);
    expect(failed.filter((r) => r.method === 'passkey')).toHaveLength(FAILED_PASSKEY_ROWS_PER_HOUR);
    expect(THROTTLED_ROWS_PER_HOUR).toBe(FAILED_PASSKEY_ROWS_PER_HOUR);
  });
});
