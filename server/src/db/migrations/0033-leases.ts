import { type Kysely, sql } from 'kysely';

/**
 * Leases for background roles that must run once across API instances (issue 15): one row per role,
 * held by one instance until `expires_at` (database clock), renewed by its holder. `token` is the
 * fencing token: it grows by one every time the role changes hands, and a leader's writes check it
 * (modules/leases/lease.ts `fence`), so a paused old leader can never write after a new one started.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table leases (
      role text primary key check (length(role) between 1 and 100),
      holder text not null check (length(holder) between 1 and 200),
      token bigint not null check (token >= 1),
      expires_at timestamptz not null,
      acquired_at timestamptz not null
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table leases`.execute(db);
}
