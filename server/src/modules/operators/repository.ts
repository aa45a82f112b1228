import { type Kysely, type Selectable, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { OperatorSessionsTable, OperatorsTable } from '../../db/schema-notices.ts';
import type { OperatorRole } from './roles.ts';

type Db = Kysely<Database>;
export type OperatorRow = Selectable<OperatorsTable>;
export type OperatorSessionRow = Selectable<OperatorSessionsTable>;

/** A new operator with roles and an enrolment token; no password and no factor until enrolled. */
export async function insertOperator(
  db: Db,
  operator: {
    name: string;
    roles: OperatorRole[];
    enrolmentTokenHash: Buffer;
    enrolmentExpiresAt: Date;
    /** The console admin who got the link; null (the default) for the ops CLI. */
    enrolmentIssuedBy?: string | null;
  },
  now: Date,
): Promise<OperatorRow> {
  return db
    .insertInto('operators')
    .values({
      name: operator.name,
      password_hash: null,
      roles: operator.roles,
      enrolment_token_hash: operator.enrolmentTokenHash,
      enrolment_expires_at: operator.enrolmentExpiresAt,
      enrolment_issued_by: operator.enrolmentIssuedBy ?? null,
      created_at: now,
      disabled_at: null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function findOperatorById(db: Db, id: string): Promise<OperatorRow | undefined> {
  return db.selectFrom('operators').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * Accepts RFC 6238 step `step` for the operator when newer than the last accepted one: a conditional
 * update, so two sign-ins racing with one code cannot both pass.
 */
export async function acceptOperatorTotpStep(db: Db, id: string, step: number): Promise<boolean> {
  const result = await db
    .updateTable('operators')
    .set({ totp_last_step: String(step) })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', String(step))]))
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function findOperatorByName(db: Db, name: string): Promise<OperatorRow | undefined> {
  return db.selectFrom('operators').selectAll().where('name', '=', name).executeTakeFirst();
}

export async function insertOperatorSession(
  db: Db,
  session: { operatorId: string; tokenHash: Buffer; expiresAt: Date },
  now: Date,
): Promise<OperatorSessionRow> {
  return db
    .insertInto('operator_sessions')
    .values({
      operator_id: session.operatorId,
      token_hash: session.tokenHash,
      created_at: now,
      last_seen_at: now,
      expires_at: session.expiresAt,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** A live session of an enabled operator, with the operator's name. */
export async function findLiveOperatorSession(
  db: Db,
  tokenHash: Buffer,
  now: Date,
  idleSince: Date,
): Promise<
  { sessionId: string; operatorId: string; name: string; roles: OperatorRole[]; lastSeenAt: Date } | undefined
> {
  return (
    db
      .selectFrom('operator_sessions as s')
      .innerJoin('operators as o', 'o.id', 's.operator_id')
      .select([
        's.id as sessionId',
        'o.id as operatorId',
        'o.name as name',
        'o.roles as roles',
        's.last_seen_at as lastSeenAt',
      ])
      .where('s.token_hash', '=', tokenHash)
      .where('s.revoked_at', 'is', null)
      .where('s.expires_at', '>', now)
      .where('s.last_seen_at', '>', idleSince)
      .where('o.disabled_at', 'is', null)
      // Only an operator with a password AND an authenticator app has sessions (review 32a, finding 6:
      // a session from before 0084, or of an account re-enrolment reset, is not honoured).
      .where('o.password_hash', 'is not', null)
      .where('o.totp_confirmed_at', 'is not', null)
      .executeTakeFirst()
  );
}

/**
 * Whether operator session `id` still holds (as findLiveOperatorSession), without touching it; with
 * `anyOfRoles`, also whether the operator still holds one of them (a stream re-checks its route's
 * roles on every batch and heartbeat: review 32a, finding 7).
 */
export async function operatorSessionLive(
  db: Db,
  id: string,
  now: Date,
  idleSince: Date,
  anyOfRoles?: readonly OperatorRole[],
): Promise<boolean> {
  let query = db
    .selectFrom('operator_sessions as s')
    .innerJoin('operators as o', 'o.id', 's.operator_id')
    .select('s.id')
    .where('s.id', '=', id)
    .where('s.revoked_at', 'is', null)
    .where('s.expires_at', '>', now)
    .where('s.last_seen_at', '>', idleSince)
    .where('o.disabled_at', 'is', null)
    .where('o.password_hash', 'is not', null)
    .where('o.totp_confirmed_at', 'is not', null);
  if (anyOfRoles !== undefined) query = query.where(sql<boolean>`o.roles && ${sql.val([...anyOfRoles])}::text[]`);
  return (await query.executeTakeFirst()) !== undefined;
}

export async function touchOperatorSession(db: Db, id: string, now: Date): Promise<void> {
  await db.updateTable('operator_sessions').set({ last_seen_at: now }).where('id', '=', id).execute();
}

/** Ends every live session of operator `operatorId`; returns how many. */
export async function revokeOperatorSessions(db: Db, operatorId: string, now: Date): Promise<number> {
  const result = await db
    .updateTable('operator_sessions')
    .set({ revoked_at: now })
    .where('operator_id', '=', operatorId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export async function revokeOperatorSession(db: Db, id: string, now: Date): Promise<void> {
  await db
    .updateTable('operator_sessions')
    .set({ revoked_at: now })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .execute();
}
