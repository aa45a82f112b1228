import { type Kysely, sql } from 'kysely';

/**
 * A sell the provider fails after our payout was placed (issue 36).
 *
 * - Withdrawals gain `review_approved -> review_rejected`: a payout not yet signed is cancelled (its
 *   lock released) instead of being signed later to a provider address whose transaction is closed.
 *   The signer takes a withdrawal only while it is `review_approved`, under the same row lock, so the
 *   cancel and the signing cannot both happen.
 * - Ramp orders gain `refund_pending`: the provider failed the sell but our coins already left (the
 *   transfer was signed). The order stays out of `failed` until the provider's on-chain refund
 *   (`refunded`), or the transfer turns out to have failed on chain after all (`failed`, lock back).
 *   `ramp_order_transitions` is frozen by a trigger; its rows change here only, with the trigger off.
 */
const rampStates = [
  'pending',
  'waiting_payment',
  'waiting_deposit',
  'processing',
  'completed',
  'failed',
  'refunded',
  'expired',
  'refund_pending',
];
const newPairs: ReadonlyArray<readonly [string, string]> = [
  ['waiting_deposit', 'refund_pending'],
  ['processing', 'refund_pending'],
  ['refund_pending', 'refunded'],
  ['refund_pending', 'failed'],
];

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table ramp_orders drop constraint ramp_orders_state_check`.execute(db);
  await sql`alter table ramp_orders add constraint ramp_orders_state_check
    check (state in (${sql.join(rampStates.map((s) => sql.lit(s)))}))`.execute(db);
  await sql`alter table ramp_order_transitions disable trigger ramp_order_transitions_frozen`.execute(db);
  await db
    .withTables<{ ramp_order_transitions: { from_state: string; to_state: string } }>()
    .insertInto('ramp_order_transitions')
    .values(newPairs.map(([from_state, to_state]) => ({ from_state, to_state })))
    .execute();
  await sql`alter table ramp_order_transitions enable trigger ramp_order_transitions_frozen`.execute(db);
  await withdrawalsTransition(db, true);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await withdrawalsTransition(db, false);
  await sql`alter table ramp_order_transitions disable trigger ramp_order_transitions_frozen`.execute(db);
  for (const [from, to] of newPairs)
    await sql`delete from ramp_order_transitions where from_state = ${from} and to_state = ${to}`.execute(db);
  await sql`alter table ramp_order_transitions enable trigger ramp_order_transitions_frozen`.execute(db);
  await sql`alter table ramp_orders drop constraint ramp_orders_state_check`.execute(db);
  await sql`alter table ramp_orders add constraint ramp_orders_state_check
    check (state in (${sql.join(rampStates.slice(0, -1).map((s) => sql.lit(s)))}))`.execute(db);
}

/** 0008's trigger function, with `review_approved -> review_rejected` when `cancel` is set. */
async function withdrawalsTransition(db: Kysely<unknown>, cancel: boolean): Promise<void> {
  const approvedTo = cancel ? sql`('transfer_in_progress', 'review_rejected')` : sql`('transfer_in_progress')`;
  await sql`
    create or replace function withdrawals_transition() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        if new.state <> 'in_review' then
          raise exception 'a withdrawal starts in_review, not %', new.state using errcode = 'check_violation';
        end if;
        return new;
      end if;
      if new.user_id <> old.user_id or new.coin <> old.coin or new.network <> old.network
         or new.address <> old.address or new.amount_minor <> old.amount_minor or new.fee_minor <> old.fee_minor
         or new.idempotency_key <> old.idempotency_key or new.created_at <> old.created_at then
        raise exception 'withdrawal % is immutable except for its state', old.id using errcode = 'check_violation';
      end if;
      if new.state is distinct from old.state and not (
           (old.state = 'in_review' and new.state in ('review_approved', 'review_rejected'))
        or (old.state = 'review_approved' and new.state in ${approvedTo})
        or (old.state = 'transfer_in_progress' and new.state in ('transfer_successful', 'transfer_failed'))
      ) then
        raise exception 'withdrawal % cannot move from % to %', old.id, old.state, new.state
          using errcode = 'check_violation';
      end if;
      return new;
    end
    $$`.execute(db);
}
