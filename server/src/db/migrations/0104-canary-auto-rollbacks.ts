import { type Kysely, sql } from 'kysely';

/**
 * canary_auto_rollbacks (issue 35): the canary watch's decisions, written (fenced by its lease) before
 * it ends the canary in the registry, so a crash between the two is finished by the next leader and an
 * operator can see why a canary stopped. One row per remote and canary version.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table canary_auto_rollbacks (
    remote text not null,
    canary_version text not null,
    stable_version text not null,
    canary_loads bigint not null,
    canary_failures bigint not null,
    stable_loads bigint not null,
    stable_failures bigint not null,
    margin_pct integer not null check (margin_pct between 0 and 100),
    min_loads integer not null check (min_loads > 0),
    decided_at timestamptz not null default now(),
    done_at timestamptz,
    primary key (remote, canary_version)
  )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table canary_auto_rollbacks`.execute(db);
}
