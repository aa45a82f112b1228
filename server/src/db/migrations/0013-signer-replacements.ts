import { type Kysely, sql } from 'kysely';

/**
 * Fee-bumped replacements of stuck signer transactions (signer/signer.ts).
 *
 * A withdrawal may now have several recorded attempts: attempt 0 is the first signing, attempt k > 0
 * re-signs the SAME nonce with higher fees. All attempts of one nonce belong to one withdrawal (trigger
 * below), so at most one of them can ever be mined; the partial unique index says the same in our books.
 * Losing attempts end in state `replaced`. `broadcast_at` is when the attempt was first broadcast: the
 * replacement timer starts there, not at signing, so a signer that was down does not bump on restart
 * before it has rebroadcast. The fee columns are for operators (the raw bytes remain the truth).
 * Migrations must not import app code: they describe the schema as it was at the time.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table signer_transactions
    add column attempt integer not null default 0 check (attempt between 0 and 32),
    add column max_fee_per_gas numeric(78, 0),
    add column max_priority_fee_per_gas numeric(78, 0),
    add column broadcast_at timestamptz,
    drop constraint signer_transactions_withdrawal_id_key,
    drop constraint signer_transactions_sender_nonce,
    drop constraint signer_transactions_state_check,
    add constraint signer_transactions_state_check
      check (state in ('signed', 'mined', 'reverted', 'replaced')),
    add constraint signer_transactions_withdrawal_attempt unique (withdrawal_id, attempt),
    add constraint signer_transactions_sender_nonce_attempt unique (chain_id, from_address, nonce, attempt)`.execute(
    db,
  );
  // At most one attempt per nonce is ever included in a block, so at most one is recorded as such.
  await sql`create unique index signer_transactions_one_included on signer_transactions (chain_id, from_address, nonce)
    where state in ('mined', 'reverted')`.execute(db);
  await sql`create index signer_transactions_open_idx on signer_transactions (withdrawal_id) where state = 'signed'`.execute(
    db,
  );
  await sql`
    create function signer_transactions_attempt() returns trigger language plpgsql as $$
    begin
      if new.attempt > 0 and not exists (
        select 1 from signer_transactions p
        where p.withdrawal_id = new.withdrawal_id and p.attempt = new.attempt - 1
          and p.chain_id = new.chain_id and p.from_address = new.from_address and p.nonce = new.nonce
      ) then
        raise exception 'replacement attempt % of withdrawal % does not follow an attempt with its nonce',
          new.attempt, new.withdrawal_id using errcode = 'check_violation';
      end if;
      return new;
    end
    $$`.execute(db);
  // Attempt 0 is unique per (sender, nonce) and every later attempt follows one of its own withdrawal with
  // the same nonce, so by induction a nonce's attempts all pay the same withdrawal.
  await sql`
    create trigger signer_transactions_attempt before insert on signer_transactions
    for each row execute function signer_transactions_attempt()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger signer_transactions_attempt on signer_transactions`.execute(db);
  await sql`drop function signer_transactions_attempt()`.execute(db);
  await sql`drop index signer_transactions_open_idx`.execute(db);
  await sql`drop index signer_transactions_one_included`.execute(db);
  await sql`delete from signer_transactions where attempt > 0`.execute(db);
  await sql`update signer_transactions set state = 'signed' where state = 'replaced'`.execute(db);
  await sql`alter table signer_transactions
    drop constraint signer_transactions_sender_nonce_attempt,
    drop constraint signer_transactions_withdrawal_attempt,
    drop constraint signer_transactions_state_check,
    add constraint signer_transactions_state_check check (state in ('signed', 'mined', 'reverted')),
    add constraint signer_transactions_sender_nonce unique (chain_id, from_address, nonce),
    add constraint signer_transactions_withdrawal_id_key unique (withdrawal_id),
    drop column broadcast_at,
    drop column max_priority_fee_per_gas,
    drop column max_fee_per_gas,
    drop column attempt`.execute(db);
}
