import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { useTestDatabase } from '../../test/database.ts';
import { insertOperator } from '../operators/repository.ts';
import type { OperatorRole } from '../operators/roles.ts';
import { rational } from '../prices/rational.ts';
import type { DecidingOperator } from './four-eyes.ts';
import { runWithdrawalsCommand } from './ops-commands.ts';
import { transition } from './repository.ts';
import { createWithdrawalReview } from './review-service.ts';
import { reviewFixture } from './review-test-helpers.ts';

/**
 * Security review of the four-eyes work (issue 32, review-32wd.md). Each `it.fails` is an attack that
 * WORKS on the code as merged (so the test body fails its "should be refused" expectation); once fixed,
 * turn `it.fails` into `it`.
 */
const database = useTestDatabase();
const USDT = (dollars: number) => BigInt(dollars) * 1_000_000n;
const prices = { price: () => rational(1n) }; // USDT at $1, always fresh
const review = () =>
  createWithdrawalReview({ db: database.db, now: () => new Date(), prices, thresholdUsdCents: () => 1_000_000n });

async function operator(name: string, roles: OperatorRole[]): Promise<DecidingOperator> {
  const row = await insertOperator(
    database.db,
    { name, roles, enrolmentTokenHash: randomBytes(32), enrolmentExpiresAt: new Date(Date.now() + 3_600_000) },
    new Date(),
  );
  return { operatorId: row.id, name: row.name, roles: row.roles as OperatorRole[] };
}
const stateOf = async (id: string) =>
  (await database.db.selectFrom('withdrawals').select('state').where('id', '=', id).executeTakeFirstOrThrow()).state;

describe('review-32wd: four-eyes attacks', () => {
  it('MEDIUM-1: a first approval by an operator disabled (or stripped of finance) before the second still counts', async () => {
    const a = await operator('wd_fin_a1', ['finance']);
    const b = await operator('wd_fin_b1', ['finance']);
    const { id } = await reviewFixture(database.db, { amountMinor: USDT(20_000) });
    expect((await review().approve(id, a)).outcome).toBe('awaiting_second_approval');
    // A is caught / leaves: an admin disables A and takes the finance role away.
    await database.db
      .updateTable('operators')
      .set({ disabled_at: new Date(), roles: [] })
      .where('id', '=', a.operatorId)
      .execute();
    // B (colluding, or simply trusting the queue's "one approval given") approves: it pays.
    await review()
      .approve(id, b)
      .catch(() => undefined);
    // Expected: an approval by an operator no longer enabled with finance does not count as one of the two.
    expect(await stateOf(id)).not.toBe('review_approved');
    // B's approval is now the one valid approval: a third finance operator C gives the second.
    const c = await operator('wd_fin_c1', ['finance']);
    expect((await review().approve(id, c)).outcome).toBe('approved');
    expect(await stateOf(id)).toBe('review_approved');
  });

  it('MEDIUM-2: one person at the shell pays a large withdrawal alone by naming two operators in the CLI (neither ever enrolled)', async () => {
    await operator('wd_cli_x', ['finance']);
    await operator('wd_cli_y', ['finance']);
    const { id } = await reviewFixture(database.db, { amountMinor: USDT(50_000) });
    const out: string[] = [];
    const first = await runWithdrawalsCommand(database.db, ['approve', id, '--operator', 'wd_cli_x'], (l) =>
      out.push(l),
    );
    const second = await runWithdrawalsCommand(database.db, ['approve', id, '--operator', 'wd_cli_y'], (l) =>
      out.push(l),
    );
    // Fixed: the CLI gives first approvals only; the second is refused (exit 1) and waits for the console.
    expect([first, second]).toEqual([0, 1]);
    expect(out.join('\n')).toMatch(/console/);
    expect(await stateOf(id)).toBe('awaiting_second_approval');
  });

  it('MEDIUM-3: one finance operator bulk-approves a $20,000 withdrawal split into four of $5,000 (same user, same address, minutes apart)', async () => {
    const a = await operator('wd_fin_bulk', ['finance']);
    const first = await reviewFixture(database.db, { amountMinor: USDT(5_000) });
    const ids = [first.id];
    for (let i = 0; i < 3; i++)
      ids.push((await reviewFixture(database.db, { amountMinor: USDT(5_000), userId: first.userId })).id);
    const results = await review().bulkApprove(ids, a);
    // Expected: what the user has in review/approved over a window is weighed together, so at most
    // $10,000 of it goes out on one pair of eyes. Today all four are approved by A alone.
    expect(results.filter((r) => r.outcome === 'approved').length).toBeLessThan(ids.length);
  });

  it('LOW-4: the database lets a single UPDATE move a $20,000 withdrawal in_review -> review_approved with no approval recorded', async () => {
    const { id } = await reviewFixture(database.db, { amountMinor: USDT(20_000) });
    await sql`update withdrawals set value_usd_cents = 2000000 where id = ${id}`.execute(database.db);
    // The migration says "no code path (nor a hand-written UPDATE by the API's role) skips the rule";
    // the trigger only guards awaiting_second_approval -> review_approved.
    await expect(
      database.db.transaction().execute((trx) => transition(trx, id, 'in_review', 'review_approved', {}, new Date())),
    ).rejects.toThrow();
  });

  it('LOW-5: two approval decisions with made-up operator ids satisfy the trigger (operator_id has no reference)', async () => {
    const { id } = await reviewFixture(database.db, { amountMinor: USDT(20_000) });
    await expect(
      database.db.transaction().execute(async (trx) => {
        await transition(trx, id, 'in_review', 'awaiting_second_approval', {}, new Date());
        for (const n of ['ghost1', 'ghost2'])
          await sql`insert into withdrawal_decisions (withdrawal_id, operator_id, operator_name, decision, state_after, decided_at)
            values (${id}, gen_random_uuid(), ${n}, 'approve', 'review_approved', now())`.execute(trx);
        await transition(trx, id, 'awaiting_second_approval', 'review_approved', {}, new Date());
      }),
    ).rejects.toThrow();
  });

  it('LOW-7: bulk approve answers per item even when one fails unexpectedly (the others still decided)', async () => {
    const a = await operator('wd_fin_l7', ['finance']);
    const small = await reviewFixture(database.db, { amountMinor: USDT(10) });
    // Not a uuid: the database throws (no AppError) inside that item's transaction.
    const results = await review().bulkApprove([small.id, 'not-a-uuid'], a);
    expect(results).toEqual([
      { id: small.id, outcome: 'approved' },
      expect.objectContaining({ id: 'not-a-uuid', outcome: 'refused', code: 'INTERNAL' }),
    ]);
    expect(await stateOf(small.id)).toBe('review_approved');
  });

  it('LOW-7: a refused decision leaves an audit event (same operator twice, a second look asked twice, a wrong role)', async () => {
    const a = await operator('wd_fin_l7r', ['finance']);
    const support = await operator('wd_sup_l7r', ['support']);
    const { id } = await reviewFixture(database.db, { amountMinor: USDT(20_000) });
    expect((await review().approve(id, a)).outcome).toBe('awaiting_second_approval');
    await expect(review().approve(id, a)).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await review().secondLook(id, a, 'looks odd');
    await expect(review().secondLook(id, a, 'again')).rejects.toMatchObject({ code: 'CONFLICT' });
    await expect(review().reject(id, support, 'no')).rejects.toMatchObject({ code: 'FORBIDDEN' });
    const refused = await database.db
      .selectFrom('audit_events')
      .select(['user_id', 'details'])
      .where('event', '=', 'withdrawal_decision_refused')
      .where(sql<boolean>`details->>'withdrawalId' = ${id}`)
      .orderBy('id')
      .execute();
    expect(
      refused.map((r) => [(r.details as { operator: string }).operator, (r.details as { decision: string }).decision]),
    ).toEqual([
      ['wd_fin_l7r', 'approve'],
      ['wd_fin_l7r', 'second_look'],
      ['wd_sup_l7r', 'reject'],
    ]);
    expect(refused.every((r) => r.user_id !== null)).toBe(true);
    expect(await stateOf(id)).toBe('awaiting_second_approval');
  });

  it('LOW-7: withdrawal_decisions refuses TRUNCATE, the owner included', async () => {
    const a = await operator('wd_fin_l7t', ['finance']);
    const { id } = await reviewFixture(database.db, { amountMinor: USDT(20_000) });
    await review().approve(id, a);
    await expect(sql`truncate withdrawal_decisions`.execute(database.db)).rejects.toThrow(/append-only/);
    await expect(sql`truncate withdrawals cascade`.execute(database.db)).rejects.toThrow();
    const kept = await database.db
      .selectFrom('withdrawal_decisions')
      .select('id')
      .where('withdrawal_id', '=', id)
      .execute();
    expect(kept).toHaveLength(1);
  });
});
