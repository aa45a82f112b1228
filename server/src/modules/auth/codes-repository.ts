import { type Kysely, type Selectable, sql } from 'kysely';
import type { Database, VerificationCodesTable } from '../../db/schema.ts';
import type { CodePurposeValue as RequestablePurpose } from './schemas.ts';

/** What a code may be for: the purposes of POST /auth/codes and a new-device confirmation's. */
type CodePurposeValue = RequestablePurpose | 'new_device';

type Db = Kysely<Database>;
export type CodeRow = Selectable<VerificationCodesTable>;

export interface NewCode {
  email: string;
  purpose: CodePurposeValue;
  userId: string | null;
  salt: Buffer;
  codeHash: Buffer;
  expiresAt: Date;
  ip: string | null;
}

export async function insertCode(db: Db, code: NewCode, now: Date): Promise<string> {
  const { id } = await db
    .insertInto('verification_codes')
    .values({
      email: code.email,
      purpose: code.purpose,
      user_id: code.userId,
      salt: code.salt,
      code_hash: code.codeHash,
      created_at: now,
      expires_at: code.expiresAt,
      ip: code.ip,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/** When the last code for this address and purpose was issued. */
export async function lastCodeIssuedAt(db: Db, email: string, purpose: CodePurposeValue): Promise<Date | undefined> {
  const row = await db
    .selectFrom('verification_codes')
    .select('created_at')
    .where('email', '=', email)
    .where('purpose', '=', purpose)
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.created_at;
}

export async function countCodesSince(
  db: Db,
  by: { email: string } | { ip: string },
  since: Date,
): Promise<{ count: number; oldest: Date | null }> {
  let query = db
    .selectFrom('verification_codes')
    .select((eb) => [eb.fn.countAll<string>().as('n'), eb.fn.min('created_at').as('oldest')])
    .where('created_at', '>', since);
  query = 'email' in by ? query.where('email', '=', by.email) : query.where('ip', '=', by.ip);
  const row = await query.executeTakeFirstOrThrow();
  return { count: Number(row.n), oldest: row.oldest === null ? null : new Date(row.oldest) };
}

/**
 * The newest code for the address among `purposes` (older ones are superseded by it); with `userId`,
 * the newest that account asked for (an e-mail change: another account's request for the same new
 * address neither supersedes it nor can be spent by it).
 */
export async function latestCode(
  db: Db,
  email: string,
  purposes: readonly CodePurposeValue[],
  userId?: string,
): Promise<CodeRow | undefined> {
  let query = db
    .selectFrom('verification_codes')
    .selectAll()
    .where('email', '=', email)
    .where('purpose', 'in', purposes);
  if (userId !== undefined) query = query.where('user_id', '=', userId);
  return query.orderBy('created_at', 'desc').orderBy('id').limit(1).executeTakeFirst();
}

/**
 * Charges one attempt on a live code, atomically: returns the row only if it was
 * unused, unexpired and had tries left. Concurrent guesses can never exceed the limit.
 */
export async function chargeAttempt(db: Db, id: string, now: Date, maxAttempts: number): Promise<CodeRow | undefined> {
  return db
    .updateTable('verification_codes')
    .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
    .where('id', '=', id)
    .where('consumed_at', 'is', null)
    .where('expires_at', '>', now)
    .where('attempts', '<', maxAttempts)
    .returningAll()
    .executeTakeFirst();
}

/** Marks the code used; false if someone else used it first. */
export async function consumeCode(db: Db, id: string, now: Date): Promise<boolean> {
  const result = await db
    .updateTable('verification_codes')
    .set({ consumed_at: now })
    .where('id', '=', id)
    .where('consumed_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * Retention (modules/retention): deletes up to `limit` codes that expired more than two days before
 * `now` (the code limits count the last hour). Returns how many.
 */
export async function purgeOldCodes(db: Kysely<Database>, now: Date, limit: number): Promise<number> {
  const before = new Date(now.getTime() - 2 * 86_400_000);
  const result = await sql`delete from verification_codes where id in (
    select id from verification_codes where expires_at < ${before} limit ${limit} for update skip locked)`.execute(db);
  return Number(result.numAffectedRows ?? 0n);
}
