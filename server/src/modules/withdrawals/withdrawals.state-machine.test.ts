import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createUser } from '../../test/app.ts';
import { useTestDatabase } from '../../test/database.ts';
import { listAudit } from '../audit/repository.ts';
import { creditDeposit, lockFunds } from '../ledger/operations.ts';
import { balanceOf } from '../ledger/test-helpers.ts';
import { runWithdrawalsCommand } from './ops-commands.ts';
import { insertWithdrawal, transition } from './repository.ts';
import { createWithdrawalReview } from './review-service.ts';
import { canTransition, IllegalTransitionError, type WithdrawalState, withdrawalStates } from './state-machine.ts';

const database = useTestDatabase();
let counter = 0;

/** The legal path from in_review to each state. */
const pathTo: Record<WithdrawalState, WithdrawalState[]> = {
  in_review: [],
  awaiting_second_approval: ['awaiting_second_approval'],
  review_approved: ['review_approved'],
  review_rejected: ['review_rejected'],
  transfer_in_progress: ['review_approved', 'transfer_in_progress'],
  transfer_successful: ['review_approved', 'transfer_in_progress', 'transfer_successful'],
  transfer_failed: ['review_approved', 'transfer_in_progress', 'transfer_failed'],
};

const OPERATOR_A = '00000000-0000-4000-8000-00000000000a';
const OPERATOR_B = '00000000-0000-4000-8000-00000000000b';

/** The approvers are real, enabled finance operators: decisions reference operators (migration 0105). */
async function recordApproval(db: typeof database.db, withdrawalId: string, operatorId: string, at: Date) {
  await db
    .insertInto('operators')
    .values({
      id: operatorId,
      name: `sm_op_${operatorId.slice(-1)}`,
      password_hash: null,
      roles: ['finance'],
      enrolment_token_hash: null,
      enrolment_expires_at: null,
      enrolment_issued_by: null,
      created_at: at,
      disabled_at: null,
    })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
  return db
    .insertInto('withdrawal_decisions')
    .values({
      withdrawal_id: withdrawalId,
      operator_id: operatorId,
      operator_name: `op-${operatorId.slice(-1)}`,
      decision: 'approve',
      state_after: 'awaiting_second_approval',
      reason: null,
      value_usd_cents: null,
      threshold_usd_cents: null,
      four_eyes_because: null,
      decided_at: at,
    })
    .execute();
}

async function withdrawalIn(state: WithdrawalState, options: { locked?: boolean; approvals?: 1 | 2 } = {}) {
  const db = database.db;
  const userId = await createUser(db);
  counter += 1;
  const row = await db.transaction().execute(async (trx) => {
    const at = new Date();
    const w = await insertWithdrawal(
      trx,
      {
        userId,
        idempotencyKey: `key-${counter}`,
        coin: 'USDT',
        network: 'ethereum',
        address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
        amountMinor: 50_000_000n,
        feeMinor: 5_000_000n,
      },
      at,
    );
    if (!w) throw new Error('not inserted');
    if (options.locked) {
      await creditDeposit(trx, { idempotencyKey: `d-${w.id}`, userId, asset: 'USDT', amountMinor: 50_000_000n }, at);
      await lockFunds(
        trx,
        { idempotencyKey: `withdrawal:${w.id}:lock`, userId, asset: 'USDT', amountMinor: 50_000_000n },
        at,
      );
    }
    // Two approvals by different operators: what the database asks before awaiting -> approved.
    if (state === 'awaiting_second_approval' && options.approvals !== 1)
      for (const operatorId of [OPERATOR_A, OPERATOR_B]) await recordApproval(trx, w.id, operatorId, at);
    if (state === 'awaiting_second_approval' && options.approvals === 1)
      await recordApproval(trx, w.id, OPERATOR_A, at);
    let from: WithdrawalState = 'in_review';
    for (const to of pathTo[state]) {
      // review 'auto': an operator's in_review -> review_approved needs a recorded decision (0105).
      const patch =
        to === 'review_rejected' ? { reason: 'test' } : to === 'review_approved' ? { review: 'auto' as const } : {};
      const moved = await transition(trx, w.id, from, to, patch, at);
      if (!moved) throw new Error(`could not move to ${to}`);
      from = to;
    }
    return w;
  });
  return { id: row.id, userId };
}

describe('withdrawal state machine', () => {
  const pairs = withdrawalStates.flatMap((from) =>
    withdrawalStates.filter((to) => to !== from).map((to) => [from, to] as const),
  );

  it.each(pairs)('%s -> %s: the code and the database agree', async (from, to) => {
    const { id } = await withdrawalIn(from);
    const legal = canTransition(from, to);
    // The database, bypassing the code (as an automatic approval: an operator's needs a decision, 0105).
    const direct = sql`update withdrawals set state = ${to}, reason = coalesce(reason, 'r'),
      review = case when ${to} = 'review_approved' and state = 'in_review' then 'auto' else review end
      where id = ${id}`.execute(database.db);
    if (legal) await expect(direct).resolves.toBeDefined();
    else await expect(direct).rejects.toThrow(/cannot move from/);
    // The code refuses illegal moves before any SQL.
    if (!legal) {
      await expect(transition(database.db, id, from, to, {}, new Date())).rejects.toBeInstanceOf(
        IllegalTransitionError,
      );
    }
  });

  it('has exactly the documented legal moves', () => {
    const legal = pairs.filter(([from, to]) => canTransition(from, to)).map(([from, to]) => `${from}->${to}`);
    expect(legal.sort()).toEqual(
      [
        'in_review->review_approved',
        'in_review->review_rejected',
        'in_review->awaiting_second_approval',
        'awaiting_second_approval->review_approved',
        'awaiting_second_approval->review_rejected',
        'review_approved->transfer_in_progress',
        'review_approved->review_rejected',
        'transfer_in_progress->transfer_successful',
        'transfer_in_progress->transfer_failed',
      ].sort(),
    );
  });

  it('refuses a withdrawal inserted in any state but in_review, and changes to its amounts or address', async () => {
    const userId = await createUser(database.db);
    const insert = sql`insert into withdrawals (user_id, idempotency_key, coin, network, address, amount_minor, fee_minor, state, created_at, updated_at)
      values (${userId}, 'k-direct', 'ETH', 'ethereum', '0x00', 10, 1, 'review_approved', now(), now())`;
    await expect(insert.execute(database.db)).rejects.toThrow(/starts in_review/);
    const { id } = await withdrawalIn('in_review');
    await expect(sql`update withdrawals set amount_minor = 1 where id = ${id}`.execute(database.db)).rejects.toThrow(
      /immutable/,
    );
    await expect(sql`update withdrawals set address = 'x' where id = ${id}`.execute(database.db)).rejects.toThrow(
      /immutable/,
    );
    await expect(
      sql`update withdrawals set fee_minor = 60000000 where id = ${id}`.execute(database.db),
    ).rejects.toThrow();
  });

  it('the database moves awaiting_second_approval -> review_approved only after two different operators approved', async () => {
    const { id } = await withdrawalIn('awaiting_second_approval', { approvals: 1 });
    const approve = () => sql`update withdrawals set state = 'review_approved' where id = ${id}`.execute(database.db);
    await expect(approve()).rejects.toThrow(/needs two approvals/);
    // The same operator's second approval is refused by the unique index: it cannot count twice.
    await expect(recordApproval(database.db, id, OPERATOR_A, new Date())).rejects.toThrow(/one_approval/);
    await recordApproval(database.db, id, OPERATOR_B, new Date());
    await expect(approve()).resolves.toBeDefined();
    // Decisions are append-only.
    await expect(
      sql`update withdrawal_decisions set operator_id = ${OPERATOR_B} where withdrawal_id = ${id}`.execute(database.db),
    ).rejects.toThrow(/append-only/);
    await expect(
      sql`delete from withdrawal_decisions where withdrawal_id = ${id}`.execute(database.db),
    ).rejects.toThrow(/append-only/);
  });

  it('a second concurrent move from the same state finds nothing (the WHERE on the old state)', async () => {
    const { id } = await withdrawalIn('in_review');
    const [a, b] = await Promise.all([
      transition(database.db, id, 'in_review', 'review_approved', { review: 'auto' }, new Date()),
      transition(database.db, id, 'in_review', 'review_rejected', { reason: 'x' }, new Date()),
    ]);
    expect([a, b].filter(Boolean)).toHaveLength(1);
  });
});

describe('npm run ops -- withdrawals', () => {
  const run = async (...args: string[]) => {
    const lines: string[] = [];
    const code = await runWithdrawalsCommand(database.db, args, (l) => lines.push(l));
    return { code, text: lines.join('\n') };
  };

  it('lists, approves with four eyes and rejects (with a reason, funds returned); a second decision is refused', async () => {
    for (const [name, roles] of [
      ['review_ops', ['finance']],
      ['review_ops2', ['finance']],
      ['review_support', ['support']],
    ] as const)
      await database.db
        .insertInto('operators')
        .values({ name, password_hash: 'x', created_at: new Date(), roles: [...roles] })
        .onConflict((oc) => oc.column('name').doNothing())
        .execute();
    const approveMe = await withdrawalIn('in_review', { locked: true });
    const rejectMe = await withdrawalIn('in_review', { locked: true });
    const listed = await run('list');
    expect(listed.code).toBe(0);
    expect(listed.text).toContain(approveMe.id);
    expect(listed.text).toContain(rejectMe.id);

    expect((await run('approve', approveMe.id)).code).toBe(2); // no approver named
    expect((await run('approve', approveMe.id, '--operator', 'nobody_ops')).code).toBe(1);
    // A role that may not approve is refused by the same rules as in the console.
    expect((await run('approve', approveMe.id, '--operator', 'review_support')).code).toBe(1);
    // The CLI has no prices: its approval is the first of two (fail closed), and the same operator cannot give the second.
    expect(await run('approve', approveMe.id, '--operator', 'review_ops')).toEqual({
      code: 0,
      text: `withdrawal ${approveMe.id}: awaiting_second_approval (price_unavailable); another finance operator approves it in the console`,
    });
    const again = await run('approve', approveMe.id, '--operator', 'review_ops');
    expect(again.code).toBe(1);
    expect(again.text).toMatch(/console/);
    // review-32wd M2: the CLI gives first approvals only (a typed name proves nobody); the second is
    // given in the console, through the same service (here called as the console's route does).
    const second = await run('approve', approveMe.id, '--operator', 'review_ops2');
    expect(second.code).toBe(1);
    expect(second.text).toMatch(/console/);
    const ops2 = await database.db
      .selectFrom('operators')
      .select(['id', 'name'])
      .where('name', '=', 'review_ops2')
      .executeTakeFirstOrThrow();
    const console = createWithdrawalReview({ db: database.db, now: () => new Date(), prices: null });
    expect(
      (await console.approve(approveMe.id, { operatorId: ops2.id, name: ops2.name, roles: ['finance'] })).outcome,
    ).toBe('approved');
    // Issue 38 item 9: the approval names its approver, on the withdrawal and in the audit log.
    const audit = await listAudit(database.db, { userId: approveMe.userId });
    expect(audit.find((e) => e.event === 'withdrawal_first_approval')?.details).toMatchObject({
      withdrawalId: approveMe.id,
      operator: 'review_ops',
      because: 'price_unavailable',
    });
    expect(audit.find((e) => e.event === 'withdrawal_approved')?.details).toMatchObject({
      withdrawalId: approveMe.id,
      operator: 'review_ops2',
      firstApprover: 'review_ops',
    });
    const approved = await database.db
      .selectFrom('withdrawals')
      .select('reviewed_by')
      .where('id', '=', approveMe.id)
      .executeTakeFirstOrThrow();
    expect(approved.reviewed_by).toBe('review_ops2');
    expect((await run('approve', approveMe.id, '--operator', 'review_ops')).code).toBe(1);
    expect((await run('reject', rejectMe.id, '--operator', 'review_ops')).code).toBe(2); // no reason
    const rejected = await run('reject', rejectMe.id, '--operator', 'review_ops', '--reason', 'destination flagged');
    expect(rejected.code).toBe(0);
    expect(await balanceOf(database.db, 'user_available', rejectMe.userId, 'USDT')).toBe(50_000_000n);
    expect(await balanceOf(database.db, 'user_locked', rejectMe.userId, 'USDT')).toBe(0n);
    expect((await run('reject', rejectMe.id, '--operator', 'review_ops', '--reason', 'again')).code).toBe(1);
    expect((await run('list', '--state', 'review_rejected')).text).toContain(rejectMe.id);
    expect((await run('bogus')).code).toBe(2);
    expect((await run('approve', 'not-a-uuid')).code).toBe(2);
  });
});
