import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { CoinCode } from '../catalogue/catalogue.ts';
import type { AccountKind, ChainAsset } from './model.ts';

/** Test-only reads straight from SQL, independent of the code under test. */

export async function balanceOf(
  db: Kysely<Database>,
  kind: AccountKind,
  userId: string | null,
  asset: CoinCode | ChainAsset,
) {
  const row = await db
    .selectFrom('ledger_accounts')
    // A system account's lanes (migration 0034) count as the one account they are.
    .select((eb) => eb.fn.sum<string>('balance').as('balance'))
    .where('kind', '=', kind)
    .where((eb) => (userId === null ? eb('user_id', 'is', null) : eb('user_id', '=', userId)))
    .where('asset', '=', asset)
    .executeTakeFirst();
  return BigInt(row?.balance ?? '0');
}

export async function countRows(db: Kysely<Database>, table: 'ledger_transfers' | 'ledger_entries') {
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Sum of every balance of the asset, system accounts included: always 0 in a sound ledger. */
export async function assetTotal(db: Kysely<Database>, asset: string) {
  const { rows } = await sql<{ total: string | null }>`
    select sum(balance)::text as total from ledger_accounts where asset = ${asset}`.execute(db);
  return BigInt(rows[0]?.total ?? '0');
}

export async function negativeUserBalances(db: Kysely<Database>) {
  const { rows } = await sql<{ n: string }>`
    select count(*)::text as n from ledger_accounts where kind <> 'system_external' and balance < 0`.execute(db);
  return Number(rows[0]?.n ?? 0);
}
