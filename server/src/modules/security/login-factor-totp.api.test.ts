import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { listAudit } from '../audit/repository.ts';
import { FACTOR_PENDING_MS } from '../auth/sessions.ts';
import { userSessionsLockKey } from '../auth/sessions-repository.ts';
import {
  type Harness,
  login,
  nextIp,
  registerUser,
  STRONG_PASSWORD,
  sessionCookie,
  useAuthHarness,
} from '../auth/test-helpers.ts';
import { accountLoginPolicy } from '../auth/throttle-schedule.ts';
import { factorThrottleKey } from './factors-service.ts';
import { untilSomeoneWaits, whileLockHeld } from './lock-test-helpers.ts';
import { THROTTLED_ROWS_PER_HOUR } from './login-history.ts';
import { totpCode } from './totp.ts';

/**
 * The one-transaction second step (login-factor-totp.ts): the guess is charged in the transaction
 * that answers it, under the throttle row's lock, so a burst can never get more verdicts than the
 * schedule; every attempt leaves its history row, every verdict its audit row.
 */
const h: Harness = useAuthHarness();
const STEP_MS = 30_000;
const BURST = 20;

const post = (url: string, cookie: string, payload?: object) =>
  h.app.inject({ method: 'POST', url, remoteAddress: nextIp(), headers: { cookie }, ...(payload ? { payload } : {}) });

async function enrolledUser() {
  const user = await registerUser(h);
  const { secret } = (await post('/api/me/security/totp', user.cookie)).json() as { secret: string };
  const confirm = await post('/api/me/security/totp/confirm', user.cookie, { code: totpCode(secret, h.clock.now()) });
  expect(confirm.statusCode).toBe(200);
  h.clock.advance(STEP_MS);
  return { ...user, secret };
}

async function pendingSignIn(identifier: string) {
  const res = await login(h, identifier, STRONG_PASSWORD);
  expect(res.statusCode).toBe(202);
  return sessionCookie(res);
}

const factorFailures = async (userId: string) =>
  (await listAudit(h.db, { userId })).filter((e) => e.event === 'factor_failed').length;
const historyOf = (userId: string) =>
  h.db.selectFrom('login_attempts').select(['method', 'result']).where('user_id', '=', userId).execute();
const counterOf = (userId: string) =>
  h.db.selectFrom('throttles').selectAll().where('key', '=', factorThrottleKey(userId)).executeTakeFirst();

const mailsTo = async (email: string) =>
  (await h.db.selectFrom('outbox').select('id').where('to_address', '=', email).execute()).length;
const lastUsedStep = async (userId: string) =>
  (await h.db.selectFrom('user_totp').select('last_used_step').where('user_id', '=', userId).executeTakeFirst())
    ?.last_used_step;
const liveUsableSessions = async (userId: string) =>
  (
    await h.db
      .selectFrom('sessions')
      .select('id')
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .where('factor_pending', '=', false)
      .where('device_pending', '=', false)
      .execute()
  ).length;

/** Runs `body` while another transaction holds the row lock of the user's factor throttle (a burst ahead in the queue). */
const whileThrottleRowHeld = <T>(userId: string, body: () => Promise<T>) =>
  whileLockHeld(
    h.db,
    (trx) =>
      sql`insert into throttles as t (key, failures, first_failure_at, last_failure_at, locked_until)
      values (${factorThrottleKey(userId)}, 0, now(), now(), null)
      on conflict (key) do update set key = excluded.key`.execute(trx),
    body,
  );

/** Whether the user's sessions lock (sessions-repository's) is free now: tried, not waited for. */
const sessionsLockFree = (userId: string) =>
  h.db.transaction().execute(async (trx) => {
    const tried = await sql<{
      ok: boolean;
    }>`select pg_try_advisory_xact_lock(hashtext(${userSessionsLockKey(userId)})) as ok`.execute(trx);
    return tried.rows[0]?.ok === true;
  });

describe('the second step with an authenticator code, under concurrency', () => {
  it(`${BURST} concurrent wrong codes: exactly the free failures + 1 get a verdict, each one in the history`, async () => {
    const user = await enrolledUser();
    const pending = await pendingSignIn(user.email);
    const right = totpCode(user.secret, h.clock.now());
    const wrong = Array.from({ length: BURST }, (_, i) =>
      String((Number(right) + 1 + i * 7919) % 1_000_000).padStart(6, '0'),
    );
    const answers = await Promise.all(wrong.map((code) => post('/api/auth/login/factor', pending, { totpCode: code })));
    const codes = answers.map((a) => a.json().code as string);
    const verdicts = accountLoginPolicy.freeFailures + 1;
    // The free failures answer "wrong"; the next one is charged, verified, and its charge locks the key.
    expect(codes.filter((c) => c === 'WRONG_FACTOR_CODE')).toHaveLength(accountLoginPolicy.freeFailures);
    expect(codes.filter((c) => c === 'FACTOR_THROTTLED')).toHaveLength(BURST - accountLoginPolicy.freeFailures);
    expect((await counterOf(user.user.id))?.failures).toBe(verdicts);
    expect(await factorFailures(user.user.id)).toBe(verdicts);
    // Every checked code is a failure in the history; the ones refused unchecked are 'throttled' rows,
    // capped per hour as a password's are (review L3: they cost nothing and could flood the history).
    const failed = (await historyOf(user.user.id)).filter((r) => r.result === 'factor_failed');
    expect(failed).toHaveLength(verdicts);
    expect(new Set(failed.map((r) => r.method))).toEqual(new Set(['password+totp']));
    const throttled = (await historyOf(user.user.id)).filter((r) => r.result === 'throttled');
    expect(throttled).toHaveLength(Math.min(BURST - verdicts, THROTTLED_ROWS_PER_HOUR));

    // Locked: even the right code waits, unverified (no audit row, no accepted step).
    const locked = await post('/api/auth/login/factor', pending, { totpCode: right });
    expect(locked.json().code).toBe('FACTOR_THROTTLED');
    expect(await factorFailures(user.user.id)).toBe(verdicts);

    // After the lock, the right code signs in once: the counter is cleared, the pending token stays dead.
    h.clock.advance(3_600_000);
    const fresh = await pendingSignIn(user.username);
    const ok = await post('/api/auth/login/factor', fresh, { totpCode: totpCode(user.secret, h.clock.now()) });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(await counterOf(user.user.id)).toBeUndefined();
    const me = (cookie: string) => h.app.inject({ method: 'GET', url: '/api/me', headers: { cookie } });
    expect((await me(sessionCookie(ok))).statusCode).toBe(200);
    expect((await me(fresh)).statusCode).toBe(401);
    const events = (await listAudit(h.db, { userId: user.user.id })).map((e) => e.event);
    expect(events).toContain('login_succeeded');
    expect((await historyOf(user.user.id)).filter((r) => r.result === 'succeeded')).toEqual([
      { method: 'password+totp', result: 'succeeded' },
    ]);
  });

  it('a wrong code queued behind the throttle row does not hold the sessions lock (the owner’s sign-ins do not queue)', async () => {
    const user = await enrolledUser();
    const pending = await pendingSignIn(user.email);
    const wrong = String((Number(totpCode(user.secret, h.clock.now())) + 1) % 1_000_000).padStart(6, '0');
    const { answer, free } = await whileThrottleRowHeld(user.user.id, async () => {
      const answer = post('/api/auth/login/factor', pending, { totpCode: wrong });
      await untilSomeoneWaits(h.db);
      return { answer, free: await sessionsLockFree(user.user.id) };
    });
    expect((await answer).json().code).toBe('WRONG_FACTOR_CODE');
    expect(free).toBe(true);
  });

  it('a right code whose pending sign-in expired while it was queued does not sign in (review L4)', async () => {
    const user = await enrolledUser();
    const pending = await pendingSignIn(user.email);
    const sessionsBefore = await liveUsableSessions(user.user.id);
    const queued = await whileThrottleRowHeld(user.user.id, async () => {
      const answer = post('/api/auth/login/factor', pending, { totpCode: totpCode(user.secret, h.clock.now()) });
      await untilSomeoneWaits(h.db);
      h.clock.advance(FACTOR_PENDING_MS + 1_000); // the queue outlived the sign-in's five minutes
      return { answer }; // not awaited here: it waits for the row this holder keeps
    });
    const answer = await queued.answer;
    expect(answer.statusCode, answer.body).toBe(401);
    expect(await liveUsableSessions(user.user.id)).toBe(sessionsBefore);
    expect((await historyOf(user.user.id)).filter((r) => r.result === 'succeeded')).toEqual([]);
  });

  it('a right code from a browser never seen: a session waiting for the e-mail, and the mail (review L5)', async () => {
    const user = await enrolledUser();
    const pw = await login(h, user.email, STRONG_PASSWORD, nextIp(), { device: null });
    expect(pw.statusCode).toBe(202);
    const mailsBefore = await mailsTo(user.email);
    const answer = await post('/api/auth/login/factor', sessionCookie(pw), {
      totpCode: totpCode(user.secret, h.clock.now()),
    });
    expect(answer.statusCode, answer.body).toBe(202);
    expect(answer.json()).toEqual({ deviceConfirmationRequired: true });
    const waiting = await h.db
      .selectFrom('sessions')
      .select(['id', 'device_pending', 'factor_pending'])
      .where('user_id', '=', user.user.id)
      .where('revoked_at', 'is', null)
      .where('device_pending', '=', true)
      .execute();
    expect(waiting).toHaveLength(1);
    expect(await mailsTo(user.email)).toBe(mailsBefore + 1);
    const events = (await listAudit(h.db, { userId: user.user.id })).map((e) => e.event);
    expect(events).toContain('login_device_pending');
    expect((await historyOf(user.user.id)).filter((r) => r.result === 'device_pending')).toEqual([
      { method: 'password+totp', result: 'device_pending' },
    ]);
    expect(await counterOf(user.user.id)).toBeUndefined(); // the right code cleared the counter
  });

  it('a right code whose pending sign-in was ended meanwhile: rolled back, no session, the step unused (review L5)', async () => {
    const user = await enrolledUser();
    const pending = await pendingSignIn(user.email);
    const pendingId = (
      await h.db
        .selectFrom('sessions')
        .select('id')
        .where('user_id', '=', user.user.id)
        .where('factor_pending', '=', true)
        .where('revoked_at', 'is', null)
        .executeTakeFirstOrThrow()
    ).id;
    const stepBefore = await lastUsedStep(user.user.id);
    const sessionsBefore = await liveUsableSessions(user.user.id);
    const code = totpCode(user.secret, h.clock.now());
    const queued = await whileThrottleRowHeld(user.user.id, async () => {
      const answer = post('/api/auth/login/factor', pending, { totpCode: code });
      await untilSomeoneWaits(h.db);
      // Ended while the answer waits (a concurrent answer, a sign-out everywhere, a freeze).
      await h.db.updateTable('sessions').set({ revoked_at: h.clock.now() }).where('id', '=', pendingId).execute();
      return { answer };
    });
    const answer = await queued.answer;
    expect(answer.statusCode, answer.body).toBe(401);
    expect(await liveUsableSessions(user.user.id)).toBe(sessionsBefore);
    expect(await lastUsedStep(user.user.id)).toBe(stepBefore); // the accepted step rolled back with it
    // The same code still opens a fresh sign-in.
    const fresh = await pendingSignIn(user.email);
    expect((await post('/api/auth/login/factor', fresh, { totpCode: code })).statusCode).toBe(200);
  });

  it('the general path (recovery codes) records refusals it never checked as throttled, capped per hour', async () => {
    const user = await enrolledUser();
    const pending = await pendingSignIn(user.email);
    for (let i = 0; i < BURST; i += 1) {
      const answer = await post('/api/auth/login/factor', pending, { recoveryCode: `wrong-${i}-0000` });
      expect(['WRONG_FACTOR_CODE', 'FACTOR_THROTTLED']).toContain(answer.json().code);
    }
    const verdicts = accountLoginPolicy.freeFailures + 1;
    const rows = await historyOf(user.user.id);
    const failed = rows.filter((r) => r.result === 'factor_failed');
    expect(failed).toHaveLength(verdicts);
    expect(new Set(failed.map((r) => r.method))).toEqual(new Set(['password+recovery_code']));
    expect(rows.filter((r) => r.result === 'throttled')).toHaveLength(
      Math.min(BURST - verdicts, THROTTLED_ROWS_PER_HOUR),
    );
  });

  it('concurrent right codes of one step on different sign-ins: one is accepted, the others are replays and charged', async () => {
    const user = await enrolledUser();
    // Three waiting sign-ins at most per user (sessions-repository PENDING_SIGN_INS_PER_USER).
    const pendings = [];
    for (let i = 0; i < 3; i += 1) pendings.push(await pendingSignIn(user.email));
    const code = totpCode(user.secret, h.clock.now());
    const answers = await Promise.all(pendings.map((p) => post('/api/auth/login/factor', p, { totpCode: code })));
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.json().code === 'FACTOR_CODE_USED')).toHaveLength(2);
    // The first to take the row lock is the one accepted; the replays come after it, each charged.
    expect((await counterOf(user.user.id))?.failures).toBe(2);
    expect(await factorFailures(user.user.id)).toBe(2);
  });

  it('the per-user session cap holds: after 12 sign-ins only the 10 newest sessions live, each one usable', async () => {
    const user = await enrolledUser();
    const cookies: string[] = [];
    for (let i = 0; i < 12; i += 1) {
      h.clock.advance(STEP_MS); // a fresh step each time (a code is accepted once per step)
      const pending = await pendingSignIn(user.email);
      const ok = await post('/api/auth/login/factor', pending, { totpCode: totpCode(user.secret, h.clock.now()) });
      expect(ok.statusCode, ok.body).toBe(200);
      cookies.push(sessionCookie(ok));
    }
    const live = await h.db
      .selectFrom('sessions')
      .select('id')
      .where('user_id', '=', user.user.id)
      .where('revoked_at', 'is', null)
      .where('factor_pending', '=', false)
      .where('device_pending', '=', false)
      .execute();
    expect(live).toHaveLength(10);
    const status = async (cookie: string) =>
      (await h.app.inject({ method: 'GET', url: '/api/me', headers: { cookie } })).statusCode;
    expect(await status(cookies[0] ?? '')).toBe(401);
    expect(await status(cookies[1] ?? '')).toBe(401);
    for (const cookie of cookies.slice(2)) expect(await status(cookie)).toBe(200);
  });
});
