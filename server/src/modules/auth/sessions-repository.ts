import { type Kysely, type Selectable, sql } from 'kysely';
import type { Database, SessionsTable } from '../../db/schema.ts';
import type { AccountRow } from './accounts-repository.ts';

type Db = Kysely<Database>;
export type SessionRow = Selectable<SessionsTable>;

export interface NewSession {
  userId: string;
  tokenHash: Buffer;
  expiresAt: Date;
  userAgent: string | null;
  ip: string | null;
  /** A password sign-in waiting for the second factor (no route accepts it until then). */
  factorPending?: boolean;
  /** A sign-in from an unknown browser waiting for the e-mailed confirmation (security/new-device.ts). */
  devicePending?: boolean;
}

export async function insertSession(db: Db, session: NewSession, now: Date): Promise<SessionRow> {
  return db
    .insertInto('sessions')
    .values({
      user_id: session.userId,
      token_hash: session.tokenHash,
      created_at: now,
      last_seen_at: now,
      expires_at: session.expiresAt,
      user_agent: session.userAgent,
      ip: session.ip,
      factor_pending: session.factorPending === true,
      device_pending: session.devicePending === true,
      // A session proves the password (and factor) when it starts; a pending one has proved half.
      authenticated_at: session.factorPending === true ? null : now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** A session that is not revoked, not past its absolute expiry and seen after `idleSince`. */
export async function findLiveSession(
  db: Db,
  tokenHash: Buffer,
  now: Date,
  idleSince: Date,
): Promise<SessionRow | undefined> {
  return db
    .selectFrom('sessions')
    .selectAll()
    .where('token_hash', '=', tokenHash)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .where('last_seen_at', '>', idleSince)
    .where('factor_pending', '=', false)
    .where('device_pending', '=', false)
    .executeTakeFirst();
}

/** A live session that still waits for its second factor. */
export async function findPendingSession(db: Db, tokenHash: Buffer, now: Date): Promise<SessionRow | undefined> {
  return db
    .selectFrom('sessions')
    .selectAll()
    .where('token_hash', '=', tokenHash)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .where('factor_pending', '=', true)
    .executeTakeFirst();
}

/** Whether session `id` is still live (as findLiveSession), without touching it. */
export async function sessionLive(db: Db, id: string, now: Date, idleSince: Date): Promise<boolean> {
  const row = await db
    .selectFrom('sessions')
    .select('id')
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .where('last_seen_at', '>', idleSince)
    .where('factor_pending', '=', false)
    .where('device_pending', '=', false)
    .executeTakeFirst();
  return row !== undefined;
}

export async function touchSession(db: Db, id: string, now: Date): Promise<void> {
  await db.updateTable('sessions').set({ last_seen_at: now }).where('id', '=', id).execute();
}

export async function listLiveSessions(db: Db, userId: string, now: Date, idleSince: Date): Promise<SessionRow[]> {
  return db
    .selectFrom('sessions')
    .selectAll()
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .where('last_seen_at', '>', idleSince)
    .where('factor_pending', '=', false)
    .where('device_pending', '=', false)
    .orderBy('last_seen_at', 'desc')
    .execute();
}

/** Revokes one of the user's sessions; returns whether it was live. */
export async function revokeSession(db: Db, userId: string, sessionId: string, now: Date): Promise<boolean> {
  const result = await db
    .updateTable('sessions')
    .set({ revoked_at: now })
    .where('id', '=', sessionId)
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Whether the sign-in `sessionId` still waits for its factor at `now`: neither ended nor expired. */
export async function pendingSignInWaits(db: Db, userId: string, sessionId: string, now: Date): Promise<boolean> {
  const row = await db
    .selectFrom('sessions')
    .select('id')
    .where('id', '=', sessionId)
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .where('factor_pending', '=', true)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Ends one of the user's sign-ins waiting for the second factor and reads the user's account in the same
 * statement (a sign-in's second step answers with the account: one round trip, not two). Undefined when
 * it no longer waits at `now`: ended (a concurrent answer, a sign-out, a security change) or expired
 * (the step may have queued past its five minutes: review L4, as login-factor-repository acceptTotpSignIn).
 */
export async function endPendingSignInReturningAccount(
  db: Db,
  userId: string,
  sessionId: string,
  now: Date,
): Promise<AccountRow | undefined> {
  return db
    .updateTable('sessions')
    .from('accounts')
    .set({ revoked_at: now })
    .whereRef('accounts.user_id', '=', 'sessions.user_id')
    .where('sessions.id', '=', sessionId)
    .where('sessions.user_id', '=', userId)
    .where('sessions.revoked_at', 'is', null)
    .where('sessions.factor_pending', '=', true)
    .where('sessions.expires_at', '>', now)
    .returningAll('accounts')
    .executeTakeFirst();
}

/**
 * Revokes the user's sign-ins still waiting (a second factor or a new-device confirmation); returns
 * how many. Run in the transaction of a security change (a factor added, the password or the e-mail
 * changed): a sign-in made before it, with less than the account now asks for, must not be completed
 * later (review s6b, findings 2 and 7). Approval updates the same session row, so either it committed
 * first (the sign-in was complete before the change) or it finds the session revoked.
 */
export async function revokePendingSessions(db: Db, userId: string, now: Date): Promise<number> {
  const result = await db
    .updateTable('sessions')
    .set({ revoked_at: now })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .where((eb) => eb.or([eb('device_pending', '=', true), eb('factor_pending', '=', true)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Revokes all of the user's sessions except `keepSessionId`; returns how many were live. */
export async function revokeUserSessions(db: Db, userId: string, now: Date, keepSessionId?: string): Promise<number> {
  let query = db
    .updateTable('sessions')
    .set({ revoked_at: now })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now);
  if (keepSessionId !== undefined) query = query.where('id', '!=', keepSessionId);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** The advisory lock (hashtext of this) that serialises a user's sign-ins around the per-user cap. */
export const userSessionsLockKey = (userId: string) => `sessions:${userId}`;

/**
 * Takes the user's sessions lock until the transaction ends. A sign-in or approval transaction takes it
 * in its first statement, before any row of the user's (known_devices, sessions): taken later, two
 * transactions holding those rows in the other order deadlock (review L1). Taking it again is free.
 */
export async function lockUserSessions(db: Db, userId: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext(${userSessionsLockKey(userId)}))`.execute(db);
}

/**
 * Revokes the user's live sessions of one kind beyond the newest `keep` (counting `newSessionId`, which
 * stays); returns how many. Serialised per user (advisory lock in the caller's transaction) so two
 * sign-ins at once cannot both keep one too many. `waiting`: sign-ins still waiting for a factor or a
 * new-device confirmation, newest first; otherwise usable sessions, most recently used first.
 */
async function revokeBeyond(
  db: Db,
  userId: string,
  newSessionId: string,
  keep: number,
  now: Date,
  waiting: boolean,
): Promise<number> {
  await lockUserSessions(db, userId);
  const result = await db
    .updateTable('sessions')
    .set({ revoked_at: now })
    .where('id', 'in', (eb) => {
      const live = eb
        .selectFrom('sessions')
        .select('id')
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null)
        .where('expires_at', '>', now)
        .where('id', '!=', newSessionId);
      const ofKind = waiting
        ? live.where((w) => w.or([w('device_pending', '=', true), w('factor_pending', '=', true)]))
        : // Sign-ins still waiting are no sessions yet: a thief's ones must not count as "newest" and
          // push the owner's usable sessions out (review s6b, finding 5).
          live.where('device_pending', '=', false).where('factor_pending', '=', false).orderBy('last_seen_at', 'desc');
      return ofKind.orderBy('created_at', 'desc').offset(keep - 1);
    })
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Keeps `newSessionId` and the user's `keep - 1` most recently used other usable sessions, revokes the rest. */
export function revokeBeyondNewest(db: Db, userId: string, newSessionId: string, keep: number, now: Date) {
  return revokeBeyond(db, userId, newSessionId, keep, now, false);
}

/**
 * Sign-ins still waiting (factor or new device) kept per user: the newest ones; an older waiting one
 * ends. A password alone cannot pile them up (review s6b, finding 6); the owner's own newest sign-in
 * always gets through.
 */
export const PENDING_SIGN_INS_PER_USER = 3;

export function revokePendingBeyondNewest(db: Db, userId: string, newSessionId: string, now: Date) {
  return revokeBeyond(db, userId, newSessionId, PENDING_SIGN_INS_PER_USER, now, true);
}

/**
 * Retention (modules/retention): deletes up to `limit` sessions that expired or were revoked more than
 * 30 days before `now` (the device list shows live ones only; sign-ins stay in the audit log).
 */
export async function purgeOldSessions(db: Db, now: Date, limit: number): Promise<number> {
  const before = new Date(now.getTime() - 30 * 86_400_000);
  const result = await sql`delete from sessions where id in (
    select id from sessions where expires_at < ${before} or revoked_at < ${before}
    limit ${limit} for update skip locked)`.execute(db);
  return Number(result.numAffectedRows ?? 0n);
}
