import { type Kysely, type Selectable, sql } from 'kysely';
import type { AccountsTable, Database } from '../../db/schema.ts';

type Db = Kysely<Database>;
export type AccountRow = Selectable<AccountsTable>;

/** By e-mail (already lower-cased by the caller when it contains '@') or user name, case-insensitively. */
export async function findAccountByIdentifier(db: Db, identifier: string): Promise<AccountRow | undefined> {
  const value = identifier.trim();
  const query = db.selectFrom('accounts').selectAll();
  return value.includes('@')
    ? query.where('email', '=', value.toLowerCase()).executeTakeFirst()
    : query.where(sql<string>`lower(username)`, '=', value.toLowerCase()).executeTakeFirst();
}

export async function findAccountByEmail(db: Db, email: string): Promise<AccountRow | undefined> {
  return db.selectFrom('accounts').selectAll().where('email', '=', email).executeTakeFirst();
}

export async function findAccountById(db: Db, userId: string): Promise<AccountRow | undefined> {
  return db.selectFrom('accounts').selectAll().where('user_id', '=', userId).executeTakeFirst();
}

export async function usernameTaken(db: Db, username: string): Promise<boolean> {
  const row = await db
    .selectFrom('accounts')
    .select('user_id')
    .where(sql<string>`lower(username)`, '=', username.toLowerCase())
    .executeTakeFirst();
  return row !== undefined;
}

export async function emailTaken(db: Db, email: string): Promise<boolean> {
  return (
    (await db.selectFrom('accounts').select('user_id').where('email', '=', email).executeTakeFirst()) !== undefined
  );
}

export interface NewAccount {
  username: string;
  email: string;
  nickname: string | null;
  country: string;
  passwordHash: string;
}

/** Creates the `users` row and its account; unique violations surface as pg error 23505. */
export async function insertAccount(db: Db, account: NewAccount, now: Date): Promise<AccountRow> {
  const { id } = await db.insertInto('users').values({ created_at: now }).returning('id').executeTakeFirstOrThrow();
  return db
    .insertInto('accounts')
    .values({
      user_id: id,
      username: account.username,
      email: account.email,
      nickname: account.nickname,
      country: account.country,
      password_hash: account.passwordHash,
      created_at: now,
      updated_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function updatePasswordHash(db: Db, userId: string, passwordHash: string, now: Date): Promise<void> {
  await db
    .updateTable('accounts')
    .set({ password_hash: passwordHash, updated_at: now })
    .where('user_id', '=', userId)
    .execute();
}

export async function updateFundPasswordHash(db: Db, userId: string, hash: string, now: Date): Promise<void> {
  await db
    .updateTable('accounts')
    .set({ fund_password_hash: hash, updated_at: now })
    .where('user_id', '=', userId)
    .execute();
}
