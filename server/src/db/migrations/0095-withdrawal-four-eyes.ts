import { type Kysely, sql } from 'kysely';

/**
 * Withdrawal review with four eyes (issue 32).
 *
 * - State `awaiting_second_approval`: a withdrawal above the second-approval value (or unvalued, or
 *   sent for a second look) that one finance operator approved. Moves added to 0040's:
 *     in_review -> awaiting_second_approval
 *     awaiting_second_approval -> review_approved | review_rejected
 *   The user sees it as `in_review` (the API maps it; user-visible states are unchanged).
 * - `withdrawal_decisions`: every operator decision (approve, second_look, reject) with who, when, why
 *   and the USD value and threshold it was weighed at. Append-only (a trigger refuses UPDATE/DELETE);
 *   one approval per operator per withdrawal (unique index), so the same operator cannot count twice.
 * - The trigger refuses awaiting_second_approval -> review_approved unless two different operators'
 *   approvals are recorded: no code path (nor a hand-written UPDATE by the API's role) skips the rule.
 * - An index on (network, address) for the review's "address seen on other users' withdrawals".
 * Migrations must not import app code: they describe the schema as it was at the time.
 */
const oldStates = [
  'in_review',
  'review_approved',
  'review_rejected',
  'transfer_in_progress',
  'transfer_successful',
  'transfer_failed',
];

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table withdrawal_decisions (
    id bigserial primary key,
    withdrawal_id uuid not null references withdrawals (id),
    operator_id uuid not null,
    operator_name text not null check (length(operator_name) between 1 and 100),
    decision text not null check (decision in ('approve', 'second_look', 'reject')),
    state_after text not null,
    reason text check (length(reason) <= 500),
    value_usd_cents numeric(78, 0),
    threshold_usd_cents numeric(78, 0),
    four_eyes_because text check (four_eyes_because in ('above_threshold', 'price_unavailable', 'second_look')),
    decided_at timestamptz not null,
    constraint withdrawal_decisions_reject_has_reason check (decision = 'approve' or reason is not null)
  )`.execute(db);
  await sql`create index withdrawal_decisions_withdrawal_idx on withdrawal_decisions (withdrawal_id, id)`.execute(db);
  await sql`create unique index withdrawal_decisions_one_approval on withdrawal_decisions (withdrawal_id, operator_id)
    where decision = 'approve'`.execute(db);
  await sql`create function withdrawal_decisions_append_only() returns trigger language plpgsql as $$
    begin
      raise exception 'withdrawal_decisions is append-only (% refused)', tg_op using errcode = 'insufficient_privilege';
    end
    $$`.execute(db);
  await sql`create trigger withdrawal_decisions_no_update_delete before update or delete on withdrawal_decisions
    for each row execute function withdrawal_decisions_append_only()`.execute(db);

  await sql`alter table withdrawals drop constraint withdrawals_state_check`.execute(db);
  await sql`alter table withdrawals add constraint withdrawals_state_check
    check (state in (${sql.join([...oldStates, 'awaiting_second_approval'].map((s) => sql.lit(s)))}))`.execute(db);
  await sql`drop index withdrawals_open_idx`.execute(db);
  await sql`create index withdrawals_open_idx on withdrawals (state, created_at)
    where state in ('in_review', 'awaiting_second_approval', 'review_approved', 'transfer_in_progress')`.execute(db);
  await sql`create index withdrawals_network_address_idx on withdrawals (network, address)`.execute(db);
  await transitionFunction(db, true);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await transitionFunction(db, false);
  await sql`drop index withdrawals_network_address_idx`.execute(db);
  await sql`drop index withdrawals_open_idx`.execute(db);
  await sql`create index withdrawals_open_idx on withdrawals (state, created_at)
    where state in ('in_review', 'review_approved', 'transfer_in_progress')`.execute(db);
  await sql`alter table withdrawals drop constraint withdrawals_state_check`.execute(db);
  await sql`alter table withdrawals add constraint withdrawals_state_check
    check (state in (${sql.join(oldStates.map((s) => sql.lit(s)))}))`.execute(db);
  await sql`drop table withdrawal_decisions`.execute(db);
  await sql`drop function withdrawal_decisions_append_only()`.execute(db);
}

/** 0040's trigger function, with the second-approval step when `fourEyes` is set. */
async function transitionFunction(db: Kysely<unknown>, fourEyes: boolean): Promise<void> {
  const reviewTo = fourEyes
    ? sql`('review_approved', 'review_rejected', 'awaiting_second_approval')`
    : sql`('review_approved', 'review_rejected')`;
  const secondStep = fourEyes
    ? sql`or (old.state = 'awaiting_second_approval' and new.state in ('review_approved', 'review_rejected'))`
    : sql``;
  const twoApprovals = fourEyes
    ? sql`
      if old.state = 'awaiting_second_approval' and new.state = 'review_approved' and (
        select count(distinct d.operator_id) from withdrawal_decisions d
        where d.withdrawal_id = old.id and d.decision = 'approve') < 2 then
        raise exception 'withdrawal % needs two approvals by different operators', old.id
          using errcode = 'check_violation';
      end if;`
    : sql``;
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
           (old.state = 'in_review' and new.state in ${reviewTo})
        ${secondStep}
        or (old.state = 'review_approved' and new.state in ('transfer_in_progress', 'review_rejected'))
        or (old.state = 'transfer_in_progress' and new.state in ('transfer_successful', 'transfer_failed'))
      ) then
        raise exception 'withdrawal % cannot move from % to %', old.id, old.state, new.state
          using errcode = 'check_violation';
      end if;
      ${twoApprovals}
      return new;
    end
    $$`.execute(db);
}
