import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { listAudit } from '../audit/repository.ts';
import { FACTOR_PENDING_MS } from '../auth/sessions.ts';
import { userSessionsLockKey } from '../auth/sessions-repository.ts';
import { type Harness, login, nextIp, STRONG_PASSWORD, sessionCookie, useAuthHarness } from '../auth/test-helpers.ts';
import { accountLoginPolicy } from '../auth/throttle-schedule.ts';
import { untilSomeoneWaits, whileLockHeld } from './lock-test-helpers.ts';
import { passkeyUser as registerPasskeyUser } from './passkey-test-helpers.ts';

/**
 * The general second step (recovery codes, a passkey, and authenticator codes when the counters are in
 * Redis: login-factor.ts) ends the pending sign-in only if it is still live when the step gets the
 * user's sessions lock, as the TOTP step does (review L4): a step queued past the sign-in's five
 * minutes, or one whose sign-in was ended meanwhile, opens no session.
 */
const h: Harness = useAuthHarness();

const post = (url: string, cookie: string, payload?: object) =>
  h.app.inject({ method: 'POST', url, remoteAddress: nextIp(), headers: { cookie }, ...(payload ? { payload } : {}) });

async function pendingSignIn(email: string) {
  const res = await login(h, email, STRONG_PASSWORD);
  expect(res.statusCode, res.body).toBe(202);
  return sessionCookie(res);
}

const usableSessions = async (userId: string) =>
  (
    await h.db
      .selectFrom('sessions')
      .select('id')
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .where('factor_pending', '=', false)
      .execute()
  ).length;
const succeeded = async (userId: string) =>
  (
    await h.db
      .selectFrom('login_attempts')
      .select('id')
      .where('user_id', '=', userId)
      .where('result', 'in', ['succeeded', 'device_pending'])
      .where('method', '!=', 'password')
      .execute()
  ).length;

/** Runs `body` while another transaction holds the user's sessions lock (a sign-in ahead in the queue). */
const whileSessionsLockHeld = <T>(userId: string, body: () => Promise<T>) =>
  whileLockHeld(
    h.db,
    (trx) => sql`select pg_advisory_xact_lock(hashtext(${userSessionsLockKey(userId)}))`.execute(trx),
    body,
  );

/** Sends the factor `answer` (built on the pending cookie) while the sessions lock is held, and lets the sign-in expire meanwhile. */
async function completedAfterExpiry(userId: string, pending: string, answer: object) {
  const queued = await whileSessionsLockHeld(userId, async () => {
    const res = post('/api/auth/login/factor', pending, answer);
    await untilSomeoneWaits(h.db);
    h.clock.advance(FACTOR_PENDING_MS + 1_000); // the queue outlived the sign-in's five minutes
    return { res }; // not awaited here: it waits for the lock this holder keeps
  });
  return queued.res;
}

describe('the general second step and the pending sign-in’s expiry', () => {
  it('a recovery code whose pending sign-in expired while it was queued: 401, no session', async () => {
    const user = await registerPasskeyUser(h);
    const pending = await pendingSignIn(user.email);
    const before = await usableSessions(user.user.id);
    const res = await completedAfterExpiry(user.user.id, pending, { recoveryCode: user.recoveryCodes[0] });
    expect(res.statusCode, res.body).toBe(401);
    expect(res.json().code).toBe('UNAUTHENTICATED');
    expect(await usableSessions(user.user.id)).toBe(before);
    expect(await succeeded(user.user.id)).toBe(0);
  });

  it('a passkey whose pending sign-in expired while it was queued: 401, no session', async () => {
    const user = await registerPasskeyUser(h);
    const pending = await pendingSignIn(user.email);
    const options = await post('/api/auth/login/factor/passkey-options', pending);
    expect(options.statusCode, options.body).toBe(200);
    const before = await usableSessions(user.user.id);
    const res = await completedAfterExpiry(user.user.id, pending, { passkey: user.key.authenticate(options.json()) });
    expect(res.statusCode, res.body).toBe(401);
    expect(await usableSessions(user.user.id)).toBe(before);
    expect(await succeeded(user.user.id)).toBe(0);
  });

  it('just before the expiry a recovery code still completes (the boundary)', async () => {
    const user = await registerPasskeyUser(h);
    const pending = await pendingSignIn(user.email);
    h.clock.advance(FACTOR_PENDING_MS - 1_000);
    const res = await post('/api/auth/login/factor', pending, { recoveryCode: user.recoveryCodes[0] });
    expect(res.statusCode, res.body).toBeLessThan(300);
  });

  it('two recovery codes at once on one pending sign-in: one session, the other refused', async () => {
    const user = await registerPasskeyUser(h);
    const pending = await pendingSignIn(user.email);
    const before = await usableSessions(user.user.id);
    const answers = await Promise.all(
      [0, 1].map((i) => post('/api/auth/login/factor', pending, { recoveryCode: user.recoveryCodes[i] })),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 401]);
    expect(await usableSessions(user.user.id)).toBe(before + 1);
  });
});

/** What a spent recovery code leaves: its row used, its audit event, the owner's notice in the outbox. */
async function spentCodes(userId: string, email: string) {
  const used = await h.db
    .selectFrom('recovery_codes')
    .select('id')
    .where('user_id', '=', userId)
    .where('used_at', 'is not', null)
    .execute();
  const audits = (await listAudit(h.db, { userId })).filter((e) => e.event === 'recovery_code_used');
  const mails = await h.db.selectFrom('outbox').select('id').where('to_address', '=', email).execute();
  return { used: used.length, audits: audits.length, mails: mails.length };
}

const completedWith = async (email: string, recoveryCode: string | undefined) =>
  post('/api/auth/login/factor', await pendingSignIn(email), { recoveryCode });

describe('a recovery code is spent only with the sign-in it completes (review L2)', () => {
  it('expired while queued for the sessions lock: not spent, no notice, and it still works later', async () => {
    const user = await registerPasskeyUser(h);
    const pending = await pendingSignIn(user.email);
    const before = await spentCodes(user.user.id, user.email);
    const res = await completedAfterExpiry(user.user.id, pending, { recoveryCode: user.recoveryCodes[0] });
    expect(res.statusCode, res.body).toBe(401);
    expect(await spentCodes(user.user.id, user.email)).toEqual(before);
    // Not spent, but not silent either: audited and in the history as a refused factor (review s11 L1).
    const failed = (await listAudit(h.db, { userId: user.user.id })).filter((e) => e.event === 'factor_failed');
    expect(failed.map((e) => e.details)).toEqual([{ during: 'login', result: 'sign_in_ended' }]);
    const history = await h.db
      .selectFrom('login_attempts')
      .select(['method', 'result'])
      .where('user_id', '=', user.user.id)
      .where('result', '=', 'factor_failed')
      .execute();
    expect(history).toEqual([{ method: 'password+recovery_code', result: 'factor_failed' }]);
    const later = await completedWith(user.email, user.recoveryCodes[0]);
    expect(later.statusCode, later.body).toBe(200);
    expect((await spentCodes(user.user.id, user.email)).used).toBe(before.used + 1);
  });

  it('two different codes at once: the loser’s code is not spent and works later', async () => {
    const user = await registerPasskeyUser(h);
    const pending = await pendingSignIn(user.email);
    const before = await spentCodes(user.user.id, user.email);
    const codes = [user.recoveryCodes[0], user.recoveryCodes[1]];
    const answers = await Promise.all(
      codes.map((recoveryCode) => post('/api/auth/login/factor', pending, { recoveryCode })),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 401]);
    const after = await spentCodes(user.user.id, user.email);
    expect(after).toEqual({ used: before.used + 1, audits: before.audits + 1, mails: after.mails });
    expect(after.mails).toBe(before.mails + 1);
    const loser = codes[answers.findIndex((a) => a.statusCode === 401)];
    const later = await completedWith(user.email, loser);
    expect(later.statusCode, later.body).toBe(200);
  });

  it('one code twice at once: one session, the code spent once', async () => {
    const user = await registerPasskeyUser(h);
    const pending = await pendingSignIn(user.email);
    const before = { sessions: await usableSessions(user.user.id), ...(await spentCodes(user.user.id, user.email)) };
    const answers = await Promise.all(
      [0, 1].map(() => post('/api/auth/login/factor', pending, { recoveryCode: user.recoveryCodes[0] })),
    );
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.statusCode !== 200)[0]?.statusCode).toBeGreaterThanOrEqual(400);
    expect(await usableSessions(user.user.id)).toBe(before.sessions + 1);
    const after = await spentCodes(user.user.id, user.email);
    expect([after.used, after.audits, after.mails]).toEqual([before.used + 1, before.audits + 1, before.mails + 1]);
  });

  it('a wrong code is still charged, audited and in the history', async () => {
    const user = await registerPasskeyUser(h);
    const answers = [];
    for (let i = 0; i < 2; i += 1) answers.push(await completedWith(user.email, 'AAAA-BBBB-CCCC'));
    expect(answers.map((a) => a.json().code)).toEqual(['WRONG_FACTOR_CODE', 'WRONG_FACTOR_CODE']);
    expect(answers.map((a) => a.json().details.attemptsLeft)).toEqual([
      accountLoginPolicy.freeFailures, // as the factor route has always answered (login-with-code.api.test.ts)
      accountLoginPolicy.freeFailures - 1,
    ]);
    const failed = (await listAudit(h.db, { userId: user.user.id })).filter((e) => e.event === 'factor_failed');
    expect(failed.map((e) => e.details)).toEqual([
      { during: 'login', result: 'wrong' },
      { during: 'login', result: 'wrong' },
    ]);
    const history = await h.db
      .selectFrom('login_attempts')
      .select(['method', 'result'])
      .where('user_id', '=', user.user.id)
      .where('result', '=', 'factor_failed')
      .execute();
    expect(history).toEqual([
      { method: 'password+recovery_code', result: 'factor_failed' },
      { method: 'password+recovery_code', result: 'factor_failed' },
    ]);
    expect((await spentCodes(user.user.id, user.email)).used).toBe(0);
  });
});
