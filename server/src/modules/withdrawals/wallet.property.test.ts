import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createUser } from '../../test/app.ts';
import { useTestDatabase } from '../../test/database.ts';
import { creditDeposit } from '../ledger/operations.ts';
import { reconcile } from '../ledger/reconcile.ts';
import { assetTotal, balanceOf, negativeUserBalances } from '../ledger/test-helpers.ts';
import { placeSend } from '../sends/service.ts';
import { markTransferFailed, markTransferInProgress, markTransferSuccessful, rejectWithdrawal } from './moves.ts';
import { placeWithdrawal } from './service.ts';
import type { WithdrawalState } from './state-machine.ts';
import { approveForTest, TEST_REVIEWER } from './test-helpers.ts';

/**
 * Random sequences of deposits, sends and withdrawals (placed, auto or manually reviewed, approved,
 * rejected, transferred, succeeded or failed) through the real wallet functions on PostgreSQL, checked
 * against a model: value is conserved, no balance goes negative, locked = open withdrawals, reconcile ok.
 */
const USERS = 3;
const ASSET = 'USDT';
const FEE = 3n;
/** Low auto-review limit so both review paths occur. */
const AUTO_LIMIT = 150n;

type Op =
  | { type: 'deposit'; user: number; amount: bigint }
  | { type: 'withdraw'; user: number; amount: bigint }
  | { type: 'send'; user: number; to: number; amount: bigint }
  | { type: 'approve' | 'reject' | 'start' | 'succeed' | 'fail'; pick: number };

const user = fc.integer({ min: 0, max: USERS - 1 });
const amount = fc.bigInt({ min: FEE + 1n, max: 120n });
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ type: fc.constant('deposit' as const), user, amount }) },
  { weight: 3, arbitrary: fc.record({ type: fc.constant('withdraw' as const), user, amount }) },
  {
    weight: 2,
    arbitrary: fc
      .record({ user, step: fc.integer({ min: 1, max: USERS - 1 }), amount })
      .map(({ user, step, amount }) => ({ type: 'send' as const, user, to: (user + step) % USERS, amount })),
  },
  ...(['approve', 'reject', 'start', 'succeed', 'fail'] as const).map((type) => ({
    weight: 2,
    arbitrary: fc.record({ type: fc.constant(type), pick: fc.nat() }),
  })),
);

interface ModelWithdrawal {
  id: string;
  user: number;
  amount: bigint;
  state: WithdrawalState;
}

describe('wallet properties over random deposits, sends and withdrawals (PostgreSQL)', () => {
  const database = useTestDatabase();
  let run = 0;

  it('conserves value, never goes negative, locks exactly the open withdrawals, always reconciles', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 30 }), async (ops) => {
        run += 1;
        const db = database.db;
        const at = new Date('2030-01-01T00:00:00Z');
        const users = await Promise.all(Array.from({ length: USERS }, () => createUser(db)));
        const feesBefore = await balanceOf(db, 'system_fees', null, ASSET);
        const available = users.map(() => 0n);
        const withdrawals: ModelWithdrawal[] = [];
        let fees = 0n;
        let deposited = 0n;
        let paidOut = 0n;
        const inState = (states: WithdrawalState[], pick: number) => {
          const open = withdrawals.filter((w) => states.includes(w.state));
          return open[pick % Math.max(open.length, 1)];
        };

        for (const [i, o] of ops.entries()) {
          const key = `p${run}-${i}`;
          await db.transaction().execute(async (trx) => {
            switch (o.type) {
              case 'deposit': {
                await creditDeposit(
                  trx,
                  { idempotencyKey: key, userId: users[o.user] ?? '', asset: ASSET, amountMinor: o.amount },
                  at,
                );
                available[o.user] = (available[o.user] ?? 0n) + o.amount;
                deposited += o.amount;
                return;
              }
              case 'withdraw': {
                const place = placeWithdrawal(
                  trx,
                  {
                    userId: users[o.user] ?? '',
                    idempotencyKey: key,
                    coin: ASSET,
                    network: 'ethereum',
                    address: '0x00',
                    amountMinor: o.amount,
                    feeMinor: FEE,
                  },
                  AUTO_LIMIT,
                  at,
                );
                if ((available[o.user] ?? 0n) < o.amount) {
                  await expect(place).rejects.toMatchObject({ code: 'AMOUNT_EXCEEDS_AVAILABLE' });
                  return;
                }
                const row = await place;
                if (!row) throw new Error('not placed');
                // Same instant for all: the 24-hour window holds every earlier one not rejected or failed.
                const windowTotal = withdrawals
                  .filter((w) => w.user === o.user && w.state !== 'review_rejected' && w.state !== 'transfer_failed')
                  .reduce((sum, w) => sum + w.amount, o.amount);
                expect(row.state).toBe(windowTotal <= AUTO_LIMIT ? 'review_approved' : 'in_review');
                available[o.user] = (available[o.user] ?? 0n) - o.amount;
                withdrawals.push({ id: row.id, user: o.user, amount: o.amount, state: row.state });
                return;
              }
              case 'send': {
                const send = placeSend(
                  trx,
                  {
                    fromUserId: users[o.user] ?? '',
                    toUserId: users[o.to] ?? '',
                    idempotencyKey: key,
                    coin: ASSET,
                    amountMinor: o.amount,
                    recipientKind: 'email',
                    recipient: 'x@example.com',
                    network: null,
                  },
                  at,
                );
                if ((available[o.user] ?? 0n) < o.amount) {
                  await expect(send).rejects.toMatchObject({ code: 'AMOUNT_EXCEEDS_AVAILABLE' });
                  return;
                }
                await send;
                available[o.user] = (available[o.user] ?? 0n) - o.amount;
                available[o.to] = (available[o.to] ?? 0n) + o.amount;
                return;
              }
              case 'approve': {
                const w = inState(['in_review'], o.pick);
                if (!w) return;
                await approveForTest(trx, w.id, at);
                w.state = 'review_approved';
                return;
              }
              case 'reject': {
                const w = inState(['in_review'], o.pick);
                if (!w) return;
                await rejectWithdrawal(trx, w.id, 'model says no', at, TEST_REVIEWER);
                w.state = 'review_rejected';
                available[w.user] = (available[w.user] ?? 0n) + w.amount;
                return;
              }
              case 'start': {
                const w = inState(['review_approved'], o.pick);
                if (!w) return;
                await markTransferInProgress(trx, w.id, `0x${key}`, at);
                w.state = 'transfer_in_progress';
                return;
              }
              case 'succeed': {
                const w = inState(['transfer_in_progress'], o.pick);
                if (!w) return;
                await markTransferSuccessful(trx, w.id, at);
                w.state = 'transfer_successful';
                fees += FEE;
                paidOut += w.amount - FEE;
                return;
              }
              case 'fail': {
                const w = inState(['transfer_in_progress'], o.pick);
                if (!w) return;
                await markTransferFailed(trx, w.id, 'reverted', at);
                w.state = 'transfer_failed';
                available[w.user] = (available[w.user] ?? 0n) + w.amount;
                return;
              }
            }
          });
        }

        const open: WithdrawalState[] = ['in_review', 'review_approved', 'transfer_in_progress'];
        let held = 0n;
        for (const [u, userId] of users.entries()) {
          const locked = withdrawals
            .filter((w) => w.user === u && open.includes(w.state))
            .reduce((s, w) => s + w.amount, 0n);
          expect(await balanceOf(db, 'user_available', userId, ASSET)).toBe(available[u]);
          expect(await balanceOf(db, 'user_locked', userId, ASSET)).toBe(locked);
          held += (available[u] ?? 0n) + locked;
        }
        const feesNow = (await balanceOf(db, 'system_fees', null, ASSET)) - feesBefore;
        expect(feesNow).toBe(fees);
        // Conservation: what came in = what users hold + what left + the fees kept.
        expect(deposited).toBe(held + paidOut + fees);
        for (const w of withdrawals) {
          const row = await db
            .selectFrom('withdrawals')
            .select('state')
            .where('id', '=', w.id)
            .executeTakeFirstOrThrow();
          expect(row.state).toBe(w.state);
        }
        expect(await assetTotal(db, ASSET)).toBe(0n);
        expect(await negativeUserBalances(db)).toBe(0);
        expect((await reconcile(db)).ok).toBe(true);
      }),
      { numRuns: 40 },
    );
  }, 120_000);
});
