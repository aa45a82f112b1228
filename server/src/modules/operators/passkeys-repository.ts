import { type Kysely, type Selectable, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { OperatorChallengePurpose, OperatorPasskeysTable } from '../../db/schema-operator-passkeys.ts';

type Db = Kysely<Database>;
export type OperatorPasskeyRow = Selectable<OperatorPasskeysTable>;

export async function insertOperatorChallenge(
  db: Db,
  row: {
    challenge: string;
    purpose: OperatorChallengePurpose;
    operatorId: string | null;
    binding: string;
    at: Date;
    expiresAt: Date;
  },
): Promise<void> {
  await db
    .insertInto('operator_webauthn_challenges')
    .values({
      challenge: row.challenge,
      purpose: row.purpose,
      operator_id: row.operatorId,
      binding: row.binding,
      created_at: row.at,
      expires_at: row.expiresAt,
    })
    .execute();
}

/**
 * Consumes a challenge once (a conditional DELETE: a replayed answer, or one sent to two instances,
 * finds it gone but for the first). False when unknown, used, expired, for the other ceremony, another
 * operator, or issued to another session or browser (`binding`).
 */
export async function consumeOperatorChallenge(
  db: Db,
  challenge: string,
  purpose: OperatorChallengePurpose,
  operatorId: string | null,
  binding: string,
  at: Date,
): Promise<boolean> {
  let query = db
    .deleteFrom('operator_webauthn_challenges')
    .where('challenge', '=', challenge)
    .where('purpose', '=', purpose)
    .where('binding', '=', binding)
    .where('expires_at', '>', at);
  query = operatorId === null ? query.where('operator_id', 'is', null) : query.where('operator_id', '=', operatorId);
  const result = await query.executeTakeFirst();
  return result.numDeletedRows === 1n;
}

/** Retention: up to `limit` expired challenges (ceremonies never finished). */
export async function purgeExpiredOperatorChallenges(db: Db, at: Date, limit: number): Promise<number> {
  const result = await sql`delete from operator_webauthn_challenges where challenge in (
    select challenge from operator_webauthn_challenges where expires_at < ${at} limit ${limit}
    for update skip locked)`.execute(db);
  return Number(result.numAffectedRows ?? 0n);
}

export async function listOperatorPasskeys(db: Db, operatorId: string): Promise<OperatorPasskeyRow[]> {
  return db
    .selectFrom('operator_passkeys')
    .selectAll()
    .where('operator_id', '=', operatorId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export async function findOperatorPasskey(db: Db, credentialId: string): Promise<OperatorPasskeyRow | undefined> {
  return db.selectFrom('operator_passkeys').selectAll().where('credential_id', '=', credentialId).executeTakeFirst();
}

/** Serialises passkey changes of one operator (the count limit), by its row. */
export async function lockOperator(db: Db, operatorId: string): Promise<void> {
  await db.selectFrom('operators').select('id').where('id', '=', operatorId).forUpdate().executeTakeFirst();
}

export async function insertOperatorPasskey(
  db: Db,
  row: Omit<OperatorPasskeysTable, 'id' | 'sign_count' | 'transports' | 'suspended_at' | 'last_used_at'> & {
    sign_count: string;
    transports: string[];
  },
): Promise<OperatorPasskeyRow> {
  return db
    .insertInto('operator_passkeys')
    .values({ ...row, last_used_at: null })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function deleteOperatorPasskey(
  db: Db,
  operatorId: string,
  id: string,
): Promise<OperatorPasskeyRow | undefined> {
  return db
    .deleteFrom('operator_passkeys')
    .where('operator_id', '=', operatorId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

/**
 * Records a use: the new counter only when it moved forward (or the key keeps none, 0), so the loser
 * of two concurrent answers carrying the same counter updates nothing. False then.
 */
export async function recordOperatorPasskeyUse(
  db: Db,
  id: string,
  counter: number,
  backedUp: boolean,
  at: Date,
): Promise<boolean> {
  const result = await db
    .updateTable('operator_passkeys')
    .set({ sign_count: String(counter), backed_up: backedUp, last_used_at: at })
    .where('id', '=', id)
    .where('suspended_at', 'is', null)
    .where((eb) => (counter === 0 ? eb('sign_count', '=', '0') : eb('sign_count', '<', String(counter))))
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function suspendOperatorPasskey(db: Db, id: string, at: Date): Promise<boolean> {
  const result = await db
    .updateTable('operator_passkeys')
    .set({ suspended_at: at })
    .where('id', '=', id)
    .where('suspended_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
