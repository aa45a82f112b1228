import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { OperatorRow } from './repository.ts';
import type { OperatorRole } from './roles.ts';

type Db = Kysely<Database>;

export interface OperatorListRow {
  id: string;
  name: string;
  roles: OperatorRole[];
  enrolled: boolean;
  enrolmentPending: boolean;
  createdAt: Date;
  disabledAt: Date | null;
  liveSessions: number;
}

/** Every operator (a few dozen at most; bounded anyway), with their live session count. */
export async function listOperators(db: Db, now: Date, idleSince: Date, limit: number): Promise<OperatorListRow[]> {
  const rows = await db
    .selectFrom('operators as o')
    .select((eb) => [
      'o.id',
      'o.name',
      'o.roles',
      'o.totp_confirmed_at',
      'o.enrolment_token_hash',
      'o.created_at',
      'o.disabled_at',
      eb
        .selectFrom('operator_sessions as s')
        .select((c) => c.fn.countAll<string>().as('n'))
        .whereRef('s.operator_id', '=', 'o.id')
        .where('s.revoked_at', 'is', null)
        .where('s.expires_at', '>', now)
        .where('s.last_seen_at', '>', idleSince)
        .as('live'),
    ])
    .orderBy('o.name')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    roles: r.roles,
    enrolled: r.totp_confirmed_at !== null,
    enrolmentPending: r.enrolment_token_hash !== null,
    createdAt: r.created_at,
    disabledAt: r.disabled_at,
    liveSessions: Number(r.live ?? 0),
  }));
}

/** Locks the operator's row for a change of roles, state or enrolment. */
export async function lockOperator(db: Db, id: string): Promise<OperatorRow | undefined> {
  return db.selectFrom('operators').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

export async function setOperatorRoles(db: Db, id: string, roles: OperatorRole[]): Promise<void> {
  await db.updateTable('operators').set({ roles }).where('id', '=', id).execute();
}

export async function disableOperator(db: Db, id: string, now: Date): Promise<void> {
  await db
    .updateTable('operators')
    .set({ disabled_at: now, enrolment_token_hash: null, enrolment_expires_at: null })
    .where('id', '=', id)
    .execute();
}

/**
 * A new enrolment link voids the old password and app: the operator sets both again (a lost phone, or
 * an operator from before factors were required).
 */
export async function resetForEnrolment(
  db: Db,
  id: string,
  link: { tokenHash: Buffer; expiresAt: Date; issuedBy: string | null },
): Promise<void> {
  const { tokenHash, expiresAt } = link;
  await db
    .updateTable('operators')
    .set({
      enrolment_issued_by: link.issuedBy,
      password_hash: null,
      totp_secret_sealed: null,
      totp_confirmed_at: null,
      totp_last_step: null,
      enrolment_token_hash: tokenHash,
      enrolment_expires_at: expiresAt,
    })
    .where('id', '=', id)
    .execute();
}

/**
 * The enabled operator a live enrolment token belongs to, locked; only while the link's issuer is the
 * CLI (null) or an operator still enabled and admin (review 32a, finding 5). The issuer's row is
 * locked too (FOR SHARE), so a concurrent disable waits for this enrolment or voids it first.
 */
export async function lockByEnrolmentToken(db: Db, tokenHash: Buffer, now: Date): Promise<OperatorRow | undefined> {
  return db
    .selectFrom('operators as o')
    .selectAll('o')
    .where('o.enrolment_token_hash', '=', tokenHash)
    .where('o.enrolment_expires_at', '>', now)
    .where('o.disabled_at', 'is', null)
    .where((eb) =>
      eb.or([
        eb('o.enrolment_issued_by', 'is', null),
        eb.exists(
          eb
            .selectFrom('operators as issuer')
            .select('issuer.id')
            .whereRef('issuer.id', '=', 'o.enrolment_issued_by')
            .where('issuer.disabled_at', 'is', null)
            .where(sql<boolean>`'admin' = any(issuer.roles)`)
            .forShare(),
        ),
      ]),
    )
    .forUpdate('o')
    .executeTakeFirst();
}

/** Voids every pending enrolment link `issuerId` issued (they were disabled, or are no longer admin). */
export async function voidLinksIssuedBy(db: Db, issuerId: string): Promise<number> {
  const result = await db
    .updateTable('operators')
    .set({ enrolment_token_hash: null, enrolment_expires_at: null })
    .where('enrolment_issued_by', '=', issuerId)
    .where('enrolment_token_hash', 'is not', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Voids the operator's own pending link. */
export async function voidOwnLink(db: Db, id: string): Promise<void> {
  await db
    .updateTable('operators')
    .set({ enrolment_token_hash: null, enrolment_expires_at: null })
    .where('id', '=', id)
    .execute();
}

export async function setPendingTotp(db: Db, id: string, sealed: Buffer): Promise<void> {
  await db
    .updateTable('operators')
    .set({ totp_secret_sealed: sealed, totp_confirmed_at: null })
    .where('id', '=', id)
    .execute();
}

/** Ends the enrolment: password and app on, the link spent. */
export async function completeEnrolment(
  db: Db,
  id: string,
  done: { passwordHash: string; step: number; at: Date },
): Promise<void> {
  await db
    .updateTable('operators')
    .set({
      password_hash: done.passwordHash,
      totp_confirmed_at: done.at,
      totp_last_step: String(done.step),
      enrolment_token_hash: null,
      enrolment_expires_at: null,
    })
    .where('id', '=', id)
    .execute();
}
