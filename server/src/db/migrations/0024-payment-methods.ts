import { type Kysely, sql } from 'kysely';

/**
 * A user's payout methods for selling crypto (issue 13): Indian bank accounts, PIX keys, UPI ids and
 * a chat-app method. Account, identity and key numbers are sealed by the application (AES-256-GCM,
 * key from configuration) in `sealed`; `shown` holds only what a screen may show (masked tails, the
 * bank, the holder). Changes are audited (audit_events).
 * Migrations must not import app code: they describe the schema as it was at the time.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table payment_methods (
    id uuid primary key default gen_random_uuid(),
    user_id uuid not null references users (id),
    kind text not null check (kind in ('bank_in', 'pix', 'upi', 'chat_app')),
    active boolean not null default true,
    shown jsonb not null,
    sealed bytea,
    created_at timestamptz not null,
    updated_at timestamptz not null
  )`.execute(db);
  await sql`create index payment_methods_user_idx on payment_methods (user_id, created_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table payment_methods`.execute(db);
}
