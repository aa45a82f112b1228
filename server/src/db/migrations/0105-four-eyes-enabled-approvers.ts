import { type Kysely, sql } from 'kysely';

/**
 * Four eyes, tightened after the review of issue 32 (review-32wd M1, L4, L5).
 *
 * - `withdrawal_decisions.operator_id` references `operators`: a made-up id no longer counts as an
 *   approver (L5).
 * - awaiting_second_approval -> review_approved needs two approvals by different operators who are,
 *   at that moment, enabled and hold `finance`: an approval by an operator since disabled or stripped of
 *   the role no longer counts (M1).
 * - in_review -> review_approved by an operator (review <> 'auto') needs a recorded approval that took
 *   it there (state_after = review_approved) by an enabled finance operator (L4). A single approval is
 *   only recorded so when four-eyes.ts found one sufficient, so a hand-written UPDATE by the API's role
 *   cannot approve a large withdrawal with no decision. Automatic approval at placement (review = 'auto',
 *   withdrawals/service.ts placeWithdrawal, bounded by the outflow budget which the config check keeps at
 *   or under the four-eyes value) needs none; a role able to write `review = 'auto'` by hand is the
 *   trust-model limit stated in docs/operator-guide.md.
 * Migrations must not import app code: they describe the schema as it was at the time.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table withdrawal_decisions add constraint withdrawal_decisions_operator_fk
    foreign key (operator_id) references operators (id)`.execute(db);
  await transitionFunction(db, true);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await transitionFunction(db, false);
  await sql`alter table withdrawal_decisions drop constraint withdrawal_decisions_operator_fk`.execute(db);
}

/** 0095's trigger function; with `enabledOnly`, approvals count only from enabled finance operators. */
async function transitionFunction(db: Kysely<unknown>, enabledOnly: boolean): Promise<void> {
  const approver = enabledOnly
    ? sql`join operators o on o.id = d.operator_id and o.disabled_at is null and 'finance' = any (o.roles)`
    : sql``;
  const singleApproval = enabledOnly
    ? sql`
      if old.state = 'in_review' and new.state = 'review_approved' and new.review is distinct from 'auto'
         and not exists (
           select 1 from withdrawal_decisions d ${approver}
           where d.withdrawal_id = old.id and d.decision = 'approve' and d.state_after = 'review_approved') then
        raise exception 'withdrawal % needs a recorded approval by an enabled finance operator', old.id
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
           (old.state = 'in_review' and new.state in ('review_approved', 'review_rejected', 'awaiting_second_approval'))
        or (old.state = 'awaiting_second_approval' and new.state in ('review_approved', 'review_rejected'))
        or (old.state = 'review_approved' and new.state in ('transfer_in_progress', 'review_rejected'))
        or (old.state = 'transfer_in_progress' and new.state in ('transfer_successful', 'transfer_failed'))
      ) then
        raise exception 'withdrawal % cannot move from % to %', old.id, old.state, new.state
          using errcode = 'check_violation';
      end if;
      if old.state = 'awaiting_second_approval' and new.state = 'review_approved' and (
        select count(distinct d.operator_id) from withdrawal_decisions d ${approver}
        where d.withdrawal_id = old.id and d.decision = 'approve') < 2 then
        raise exception 'withdrawal % needs two approvals by different enabled finance operators', old.id
          using errcode = 'check_violation';
      end if;
      ${singleApproval}
      return new;
    end
    $$`.execute(db);
}
