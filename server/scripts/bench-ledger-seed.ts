import { type Kysely, sql } from 'kysely';
import type { Database } from '../src/db/schema.ts';

export const ACCOUNTS = 10_000;
const ASSET = 'USDT';
/** Each account starts with 10^12 minor units (1,000,000 USDT): no transfer of 1..100 ever runs dry. */
const FUNDING_MINOR = 10n ** 12n;

/**
 * 10,000 users, each with a USDT account funded by its own deposit transfer (not measured), as a
 * ledger that has served 10,000 users would hold. The history matters beyond realism: PostgreSQL
 * plans the foreign-key checks and the zero-sum trigger's lookup from table statistics, and
 * statistics of a near-empty journal would give sequential scans that slow down as the run grows.
 */
export async function seed(db: Kysely<Database>): Promise<string[]> {
  const funding = FUNDING_MINOR.toString();
  await db.transaction().execute(async (trx) => {
    await sql`insert into users (created_at) select now() from generate_series(1, ${ACCOUNTS})`.execute(trx);
    await sql`
      insert into ledger_accounts (kind, user_id, asset, balance)
      select 'user_available', id, ${ASSET}, ${funding}::numeric from users`.execute(trx);
    const external = (FUNDING_MINOR * BigInt(-ACCOUNTS)).toString();
    await sql`insert into ledger_accounts (kind, user_id, asset, balance) values ('system_external', null, ${ASSET}, ${external}::numeric)`.execute(
      trx,
    );
    await sql`
      insert into ledger_transfers (idempotency_key, kind, created_at)
      select 'bench-funding-' || a.id, 'deposit', now() from ledger_accounts a
      where a.kind = 'user_available' order by a.id`.execute(trx);
    // Two entries per deposit; the external account's before/after chain follows the entry ids.
    await sql`
      insert into ledger_entries (transfer_id, account_id, amount, balance_before, balance_after, created_at)
      select t.id, x.account_id, x.amount, x.balance_before, x.balance_after, now()
      from (select a.id, row_number() over (order by a.id) as n from ledger_accounts a where a.kind = 'user_available') u
      join ledger_transfers t on t.idempotency_key = 'bench-funding-' || u.id
      cross join (select id from ledger_accounts where kind = 'system_external') e
      cross join lateral (values
        (1, e.id, -${funding}::numeric, -${funding}::numeric * (u.n - 1), -${funding}::numeric * u.n),
        (2, u.id, ${funding}::numeric, 0::numeric, ${funding}::numeric)
      ) x(leg, account_id, amount, balance_before, balance_after)
      order by u.n, x.leg`.execute(trx);
    await sql`create table bench_raw (id bigint primary key, balance numeric(78, 0) not null default 0)`.execute(trx);
    await sql`insert into bench_raw (id) select g from generate_series(1, ${ACCOUNTS}) g`.execute(trx);
  });
  await sql`analyze`.execute(db);
  const rows = await db
    .selectFrom('ledger_accounts')
    .select('id')
    .where('kind', '=', 'user_available')
    .orderBy('id')
    .execute();
  return rows.map((r) => r.id);
}
