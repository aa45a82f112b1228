import { type Kysely, type Selectable, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { DeviceConfirmationsTable } from '../../db/schema-devices.ts';
import { lockUserSessions, type SessionRow } from '../auth/sessions-repository.ts';

type Db = Kysely<Database>;
export type DeviceConfirmationRow = Selectable<DeviceConfirmationsTable>;

/**
 * Known browsers kept per user. A sign-in from one more drops the least recently seen: the list
 * cannot grow without end, and a browser unused for long asks for a confirmation again (harmless).
 */
export const KNOWN_DEVICES_PER_USER = 20;

/** A live (unrevoked, unexpired) session of this token that waits for its new-device confirmation. */
export async function devicePendingSessionByToken(
  db: Db,
  tokenHash: Buffer,
  now: Date,
): Promise<SessionRow | undefined> {
  return db
    .selectFrom('sessions')
    .selectAll()
    .where('token_hash', '=', tokenHash)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .where('device_pending', '=', true)
    .executeTakeFirst();
}

/** Whether the browser (by its cookie's hash) is one the user confirmed; marks it seen when it is. */
export async function touchKnownDevice(db: Db, userId: string, deviceHash: Buffer, now: Date): Promise<boolean> {
  const result = await db
    .updateTable('known_devices')
    .set({ last_seen_at: now })
    .where('user_id', '=', userId)
    .where('device_hash', '=', deviceHash)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Whether the browser (by its cookie's hash) is one the user confirmed; read only. */
export async function isKnownDevice(db: Db, userId: string, deviceHash: Buffer): Promise<boolean> {
  const row = await db
    .selectFrom('known_devices')
    .select('id')
    .where('user_id', '=', userId)
    .where('device_hash', '=', deviceHash)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Forgets the user's known browsers but `keep` (the browser asking, when it has a device cookie): with
 * the other sessions (sign out everywhere else with a recent password, a password or e-mail change
 * that ends them, a reset, the owner's freeze; an operator's ending of the sessions keeps none).
 * Call it before revoking the sessions. A stolen
 * device cookie is then an unknown browser again: its sign-in needs the e-mailed confirmation, and it
 * loses the known browser's own sign-in counter (auth/login-steps.ts). Returns how many were forgotten.
 */
export async function forgetOtherDevices(db: Db, userId: string, keep: Buffer | undefined): Promise<number> {
  // The user's sessions lock first, as a sign-in takes it before the known-device row and the sessions
  // (new-device.ts): called before the sessions are revoked, the two never wait for each other in turn,
  // and a sign-in in flight either finishes first (and is revoked) or starts after (and is unknown).
  await lockUserSessions(db, userId);
  let query = db.deleteFrom('known_devices').where('user_id', '=', userId);
  if (keep !== undefined) query = query.where('device_hash', '!=', keep);
  const result = await query.executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Records the browser as known (registration, a confirmation) and prunes beyond the per-user limit. */
export async function rememberDevice(
  db: Db,
  entry: { userId: string; deviceHash: Buffer; userAgent: string | null },
  now: Date,
): Promise<void> {
  await db
    .insertInto('known_devices')
    .values({
      user_id: entry.userId,
      device_hash: entry.deviceHash,
      user_agent: entry.userAgent?.slice(0, 500) ?? null,
      first_seen_at: now,
      last_seen_at: now,
    })
    .onConflict((oc) => oc.columns(['user_id', 'device_hash']).doUpdateSet({ last_seen_at: now }))
    .execute();
  await sql`delete from known_devices where id in (
    select id from known_devices where user_id = ${entry.userId}
    order by last_seen_at desc, first_seen_at desc offset ${KNOWN_DEVICES_PER_USER})`.execute(db);
}

export async function insertConfirmation(
  db: Db,
  row: {
    sessionId: string;
    userId: string;
    deviceHash: Buffer;
    linkHash: Buffer;
    expiresAt: Date;
    method: DeviceConfirmationRow['method'];
  },
  now: Date,
): Promise<void> {
  await db
    .insertInto('device_confirmations')
    .values({
      session_id: row.sessionId,
      user_id: row.userId,
      device_hash: row.deviceHash,
      link_hash: row.linkHash,
      code_id: null,
      method: row.method,
      created_at: now,
      expires_at: row.expiresAt,
      confirmed_at: null,
    })
    .execute();
}

export async function confirmationOfSession(db: Db, sessionId: string): Promise<DeviceConfirmationRow | undefined> {
  return db.selectFrom('device_confirmations').selectAll().where('session_id', '=', sessionId).executeTakeFirst();
}

export async function confirmationByLink(db: Db, linkHash: Buffer): Promise<DeviceConfirmationRow | undefined> {
  return db.selectFrom('device_confirmations').selectAll().where('link_hash', '=', linkHash).executeTakeFirst();
}

/** A new mail: its link and code replace the previous ones (an older mail's link stops working). */
export async function setConfirmationMail(
  db: Db,
  sessionId: string,
  mail: { linkHash: Buffer; codeId: string | null },
): Promise<void> {
  await db
    .updateTable('device_confirmations')
    .set({ link_hash: mail.linkHash, code_id: mail.codeId })
    .where('session_id', '=', sessionId)
    .execute();
}

/**
 * Charges one code guess to the waiting sign-in, atomically (concurrent guesses never pass `max`);
 * the guesses charged so far, undefined when its budget is spent. The budget is the sign-in's, not the code's: a resend buys none.
 */
export async function chargeConfirmationAttempt(db: Db, sessionId: string, max: number): Promise<number | undefined> {
  const charged = await db
    .updateTable('device_confirmations')
    .set((eb) => ({ code_attempts: eb('code_attempts', '+', 1) }))
    .where('session_id', '=', sessionId)
    .where('confirmed_at', 'is', null)
    .where('code_attempts', '<', max)
    .returning('code_attempts')
    .executeTakeFirst();
  return charged?.code_attempts;
}

/**
 * Code guesses charged to the user's waiting sign-ins created since `since` (each new sign-in gets
 * its own budget, so this bounds a thief who signs in again and again), and the oldest such sign-in.
 */
export async function confirmationAttemptsSince(
  db: Db,
  userId: string,
  since: Date,
): Promise<{ attempts: number; oldest: Date | null }> {
  const row = await db
    .selectFrom('device_confirmations')
    .select((eb) => [
      eb.fn.coalesce(eb.fn.sum<string>('code_attempts'), eb.val('0')).as('attempts'),
      eb.fn.min('created_at').as('oldest'),
    ])
    .where('user_id', '=', userId)
    .where('created_at', '>', since)
    .where('code_attempts', '>', 0)
    .executeTakeFirstOrThrow();
  return { attempts: Number(row.attempts), oldest: row.oldest ?? null };
}

/**
 * Marks the confirmation approved and makes its session usable, once: of two approvals at once (the
 * code here and the link on a phone) only the first wins. The session then runs its full lifetime
 * from now; false when it is gone (expired, ended, frozen) or approved already.
 */
export async function approveConfirmation(db: Db, sessionId: string, now: Date, lifetimeMs: number): Promise<boolean> {
  const approved = await db
    .updateTable('device_confirmations')
    .set({ confirmed_at: now })
    .where('session_id', '=', sessionId)
    .where('confirmed_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  if (approved.numUpdatedRows === 0n) return false;
  const session = await db
    .updateTable('sessions')
    // authenticated_at stays the sign-in's: the mailbox is no second proof of the password.
    .set({ device_pending: false, last_seen_at: now, expires_at: new Date(now.getTime() + lifetimeMs) })
    .where('id', '=', sessionId)
    .where('device_pending', '=', true)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return session.numUpdatedRows > 0n;
}
