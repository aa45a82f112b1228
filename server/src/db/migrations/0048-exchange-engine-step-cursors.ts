import { type Kysely, sql } from 'kysely';

/**
 * One queue cursor per engine step (review of issue 37, H1). Migration 0045 gave every step the same
 * stamp (`engine_checked_seq`): steps whose candidates overlap (the deposit look-up and the extra-deposit
 * look-up both read expired orders inside the late-deposit watch) re-stamped each other's rows, so with
 * a batch of 50 the first step read rows 1-50, 101-150, 1-50, ... and never 51-100. Each step now
 * stamps its own column from the same sequence and orders on it (never-taken first).
 */
const STEPS = ['observe', 'confirm', 'settle', 'payouts', 'extra'] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`drop index exchange_orders_engine_queue`.execute(db);
  await sql`alter table exchange_orders drop column engine_checked_seq`.execute(db);
  for (const step of STEPS) {
    await sql`alter table exchange_orders add column ${sql.raw(`queue_seq_${step}`)} bigint`.execute(db);
    await sql`create index ${sql.raw(`exchange_orders_queue_${step}`)}
      on exchange_orders (${sql.raw(`queue_seq_${step}`)} asc nulls first, id)`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const step of STEPS) {
    await sql`drop index ${sql.raw(`exchange_orders_queue_${step}`)}`.execute(db);
    await sql`alter table exchange_orders drop column ${sql.raw(`queue_seq_${step}`)}`.execute(db);
  }
  await sql`alter table exchange_orders add column engine_checked_seq bigint`.execute(db);
  await sql`create index exchange_orders_engine_queue
    on exchange_orders (state, engine_checked_seq asc nulls first, id)`.execute(db);
}
