import { type Kysely, sql } from 'kysely';

/**
 * A dead nonce's way out (issue 37, item 7). An operator asks for a cancel (`npm run ops -- withdrawals
 * cancel-nonce`): a row in withdrawal_nonce_cancels. The signer, which alone holds the hot wallet's key,
 * then signs a zero-value transfer from the hot wallet to itself at the withdrawal's nonce, with fees
 * above every attempt's, and records it as the next attempt of that withdrawal (kind 'cancel') before
 * broadcasting it. Whichever attempt of the nonce is mined decides: the withdrawal's own pays it, the
 * cancel fails it and unlocks the funds, each only once confirmed. Nothing is ever failed by hand while
 * signed bytes of the withdrawal could still be mined.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table signer_transactions
    add column kind text not null default 'transfer' check (kind in ('transfer', 'cancel'))`.execute(db);
  await sql`create table withdrawal_nonce_cancels (
    withdrawal_id uuid primary key references withdrawals (id),
    operator_id uuid not null,
    operator_name text not null check (length(operator_name) between 1 and 100),
    reason text not null check (length(reason) between 1 and 500),
    requested_at timestamptz not null
  )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table withdrawal_nonce_cancels`.execute(db);
  await sql`alter table signer_transactions drop column kind`.execute(db);
}
