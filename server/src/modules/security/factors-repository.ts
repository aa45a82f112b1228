import { type Kysely, type Selectable, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { RecoveryCodesTable, UserTotpTable } from '../../db/schema-security.ts';

type Db = Kysely<Database>;
export type TotpRow = Selectable<UserTotpTable>;
export type RecoveryCodeRow = Selectable<RecoveryCodesTable>;

/** Whether the user has a second factor that is on: a confirmed authenticator app or a passkey. */
export async function hasSecondFactor(db: Db, userId: string): Promise<boolean> {
  const row = await sql<{ on: boolean }>`select
    exists (select 1 from user_totp where user_id = ${userId} and confirmed_at is not null)
    or exists (select 1 from user_passkeys where user_id = ${userId}) as on`.execute(db);
  return row.rows[0]?.on === true;
}

/** Which second factors are on, in one round trip (a sign-in asks both: any at all, and the app). */
export async function secondFactorsOn(db: Db, userId: string): Promise<{ any: boolean; totp: boolean }> {
  const row = await sql<{ totp: boolean; passkey: boolean }>`select
    exists (select 1 from user_totp where user_id = ${userId} and confirmed_at is not null) as totp,
    exists (select 1 from user_passkeys where user_id = ${userId}) as passkey`.execute(db);
  const totp = row.rows[0]?.totp === true;
  return { any: totp || row.rows[0]?.passkey === true, totp };
}

/** Whether the user's authenticator app is on (confirmed). */
export async function hasTotp(db: Db, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom('user_totp')
    .select('user_id')
    .where('user_id', '=', userId)
    .where('confirmed_at', 'is not', null)
    .executeTakeFirst();
  return row !== undefined;
}

export async function findTotp(db: Db, userId: string): Promise<TotpRow | undefined> {
  return db.selectFrom('user_totp').selectAll().where('user_id', '=', userId).executeTakeFirst();
}

/** A new (unconfirmed) enrolment replaces an unconfirmed one; a confirmed one is left alone. */
export async function upsertPendingTotp(db: Db, userId: string, sealed: Buffer, at: Date): Promise<boolean> {
  const result = await sql<{ user_id: string }>`
    insert into user_totp (user_id, secret_sealed, confirmed_at, last_used_step, created_at)
    values (${userId}, ${sealed}, null, null, ${at})
    on conflict (user_id) do update set secret_sealed = excluded.secret_sealed, created_at = excluded.created_at
      where user_totp.confirmed_at is null
    returning user_id`.execute(db);
  return result.rows.length === 1;
}

/**
 * Accepts time step `step` once: only when it is newer than every step accepted before (a replayed
 * code, or two concurrent submissions of one code, find the row already moved and update nothing).
 * `confirm` also turns an enrolment on.
 */
export async function acceptTotpStep(
  db: Db,
  userId: string,
  step: number,
  at: Date,
  confirm: boolean,
): Promise<boolean> {
  const result = await db
    .updateTable('user_totp')
    .set({ last_used_step: String(step), ...(confirm ? { confirmed_at: at } : {}) })
    .where('user_id', '=', userId)
    .where((eb) => (confirm ? eb('confirmed_at', 'is', null) : eb('confirmed_at', 'is not', null)))
    .where((eb) => eb.or([eb('last_used_step', 'is', null), eb('last_used_step', '<', String(step))]))
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}

export async function deleteTotp(db: Db, userId: string): Promise<boolean> {
  const result = await db.deleteFrom('user_totp').where('user_id', '=', userId).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

export async function unusedRecoveryCodes(db: Db, userId: string): Promise<RecoveryCodeRow[]> {
  return db
    .selectFrom('recovery_codes')
    .selectAll()
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .orderBy('id')
    .execute();
}

/** Marks one code used; false when a concurrent use got there first. */
export async function useRecoveryCode(db: Db, id: string, at: Date): Promise<boolean> {
  const result = await db
    .updateTable('recovery_codes')
    .set({ used_at: at })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}

/** Voids every code of the user (regeneration, or the factor removed). */
export async function deleteRecoveryCodes(db: Db, userId: string): Promise<void> {
  await db.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
}

export async function insertRecoveryCodes(
  db: Db,
  userId: string,
  codes: { salt: Buffer; hash: Buffer }[],
  at: Date,
): Promise<void> {
  await db
    .insertInto('recovery_codes')
    .values(codes.map((c) => ({ user_id: userId, salt: c.salt, code_hash: c.hash, created_at: at })))
    .execute();
}
