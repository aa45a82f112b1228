import { type Kysely, sql } from 'kysely';

/**
 * client_event_counts (issue 35): the host's reports of remote loads and load failures, aggregated
 * per 5-minute bucket, remote, version, kind and the federation runtime's error code. One row per
 * combination, not per event, so a flood of reports only raises counts; the values are bounded by the
 * route (names and versions by pattern, error codes from a closed set). No user id, no IP: nothing
 * personal is kept.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table client_event_counts (
    bucket_start timestamptz not null,
    remote text not null check (length(remote) between 1 and 40),
    version text not null check (length(version) between 1 and 80),
    kind text not null check (kind in ('load', 'failure')),
    error_code text not null default '' check (length(error_code) <= 40),
    events bigint not null check (events > 0),
    primary key (remote, version, bucket_start, kind, error_code)
  )`.execute(db);
  await sql`create index client_event_counts_bucket on client_event_counts (bucket_start)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table client_event_counts`.execute(db);
}
