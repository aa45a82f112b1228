import { type Kysely, type Selectable, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { ChallengePurpose, UserPasskeysTable } from '../../db/schema-passkeys.ts';

type Db = Kysely<Database>;
export type PasskeyRow = Selectable<UserPasskeysTable>;

export async function insertChallenge(
  db: Db,
  row: {
    challenge: string;
    purpose: ChallengePurpose;
    userId: string | null;
    binding: string;
    at: Date;
    expiresAt: Date;
  },
): Promise<void> {
  await db
    .insertInto('webauthn_challenges')
    .values({
      challenge: row.challenge,
      purpose: row.purpose,
      user_id: row.userId,
      binding: row.binding,
      created_at: row.at,
      expires_at: row.expiresAt,
    })
    .execute();
}

/**
 * Consumes a challenge once: a conditional DELETE, so two answers carrying one challenge (a replay,
 * or the same answer sent to two instances) find it gone but for the first. `userId` undefined: any
 * (a password-less sign-in); else it must be the challenge's user. False when unknown, used,
 * expired, for another ceremony, for another user or issued elsewhere (`binding`: the session or the
 * browser's nonce that asked for it).
 */
export async function consumeChallenge(
  db: Db,
  challenge: string,
  purpose: ChallengePurpose,
  userId: string | null,
  binding: string,
  at: Date,
): Promise<boolean> {
  let query = db
    .deleteFrom('webauthn_challenges')
    .where('challenge', '=', challenge)
    .where('purpose', '=', purpose)
    .where('binding', '=', binding)
    .where('expires_at', '>', at);
  query = userId === null ? query.where('user_id', 'is', null) : query.where('user_id', '=', userId);
  const result = await query.executeTakeFirst();
  return result.numDeletedRows === 1n;
}

/** Retention: up to `limit` expired challenges (ceremonies never finished). */
export async function purgeExpiredChallenges(db: Db, at: Date, limit: number): Promise<number> {
  const result = await sql`delete from webauthn_challenges where challenge in (
    select challenge from webauthn_challenges where expires_at < ${at} limit ${limit} for update skip locked)`.execute(
    db,
  );
  return Number(result.numAffectedRows ?? 0n);
}

export async function listPasskeys(db: Db, userId: string): Promise<PasskeyRow[]> {
  return db
    .selectFrom('user_passkeys')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export async function countPasskeys(db: Db, userId: string): Promise<number> {
  const row = await db
    .selectFrom('user_passkeys')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function findPasskeyByCredentialId(db: Db, credentialId: string): Promise<PasskeyRow | undefined> {
  return db.selectFrom('user_passkeys').selectAll().where('credential_id', '=', credentialId).executeTakeFirst();
}

/**
 * Serialises every change to one user's second factors (passkeys and the authenticator app): the
 * limit of 10 holds under concurrent registrations, and removing the last passkey while the app is
 * removed cannot leave recovery codes on an account with no factor (each sees the other's commit).
 */
export async function lockUserFactors(trx: Db, userId: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext(${`factors:${userId}`}))`.execute(trx);
}

export async function insertPasskey(
  db: Db,
  row: Omit<PasskeyRow, 'id' | 'last_used_at' | 'sign_count' | 'suspended_at'> & { sign_count: string },
): Promise<PasskeyRow> {
  return db.insertInto('user_passkeys').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function renamePasskey(db: Db, userId: string, id: string, name: string): Promise<boolean> {
  const result = await db
    .updateTable('user_passkeys')
    .set({ name })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}

export async function deletePasskey(db: Db, userId: string, id: string): Promise<PasskeyRow | undefined> {
  return db
    .deleteFrom('user_passkeys')
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .returningAll()
    .executeTakeFirst();
}

/**
 * Records a use: the new counter only when it moved forward (or both are 0: an authenticator that
 * keeps no counter). Conditional, so of two concurrent answers with one counter value only one
 * passes: the other finds the row moved and is refused as a regression.
 */
export async function recordPasskeyUse(
  db: Db,
  id: string,
  newCounter: number,
  backedUp: boolean,
  at: Date,
): Promise<boolean> {
  const result = await db
    .updateTable('user_passkeys')
    .set({ sign_count: String(newCounter), backed_up: backedUp, last_used_at: at })
    .where('id', '=', id)
    .where('suspended_at', 'is', null)
    .where((eb) => (newCounter === 0 ? eb('sign_count', '=', '0') : eb('sign_count', '<', String(newCounter))))
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}

/** Suspends a passkey whose counter went backwards; false when it is gone or already suspended. */
export async function suspendPasskey(db: Db, id: string, at: Date): Promise<boolean> {
  const result = await db
    .updateTable('user_passkeys')
    .set({ suspended_at: at })
    .where('id', '=', id)
    .where('suspended_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}
