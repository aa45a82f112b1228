import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../test/app.ts';
import { useTestDatabase } from '../../test/database.ts';
import { reconcile } from './reconcile.ts';
import { createLedgerService, type LedgerService } from './service.ts';
import { assetTotal, balanceOf, negativeUserBalances } from './test-helpers.ts';

const USERS = 3;
const ASSET = 'USDT';

type Op =
  | { type: 'deposit' | 'lock' | 'unlock'; user: number; amount: bigint }
  | { type: 'settle'; user: number; amount: bigint; fee: bigint }
  | { type: 'send'; user: number; to: number; amount: bigint }
  | { type: 'retry'; pick: number };

const user = fc.integer({ min: 0, max: USERS - 1 });
const amount = fc.bigInt({ min: 1n, max: 400n });
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ type: fc.constant('deposit' as const), user, amount }),
  fc.record({ type: fc.constant('lock' as const), user, amount }),
  fc.record({ type: fc.constant('unlock' as const), user, amount }),
  fc
    .record({ user, amount, feeSeed: fc.bigInt({ min: 0n, max: 1000n }) })
    .map(({ user, amount, feeSeed }) => ({ type: 'settle' as const, user, amount, fee: feeSeed % amount })),
  fc
    .record({ user, step: fc.integer({ min: 1, max: USERS - 1 }), amount })
    .map(({ user, step, amount }) => ({ type: 'send' as const, user, to: (user + step) % USERS, amount })),
  fc.record({ type: fc.constant('retry' as const), pick: fc.nat() }),
);

/** What the ledger should hold, computed without the database. */
interface Model {
  available: bigint[];
  locked: bigint[];
  fees: bigint;
}

/** The effect of `o` on the model, or null when it must fail with INSUFFICIENT_BALANCE. */
function apply(m: Model, o: Exclude<Op, { type: 'retry' }>): Model | null {
  const next: Model = { available: [...m.available], locked: [...m.locked], fees: m.fees };
  const u = o.user;
  const available = next.available[u] ?? 0n;
  const locked = next.locked[u] ?? 0n;
  switch (o.type) {
    case 'deposit':
      next.available[u] = available + o.amount;
      return next;
    case 'lock':
      if (available < o.amount) return null;
      next.available[u] = available - o.amount;
      next.locked[u] = locked + o.amount;
      return next;
    case 'unlock':
      if (locked < o.amount) return null;
      next.locked[u] = locked - o.amount;
      next.available[u] = available + o.amount;
      return next;
    case 'settle':
      if (locked < o.amount) return null;
      next.locked[u] = locked - o.amount;
      next.fees += o.fee;
      return next;
    case 'send':
      if (available < o.amount) return null;
      next.available[u] = available - o.amount;
      next.available[o.to] = (next.available[o.to] ?? 0n) + o.amount;
      return next;
  }
}

function run(ledger: LedgerService, users: string[], key: string, o: Exclude<Op, { type: 'retry' }>) {
  const userId = users[o.user] ?? '';
  const base = { idempotencyKey: key, userId, asset: ASSET, amountMinor: o.amount } as const;
  switch (o.type) {
    case 'deposit':
      return ledger.deposit(base);
    case 'lock':
      return ledger.lock(base);
    case 'unlock':
      return ledger.unlock(base);
    case 'settle':
      return ledger.settleWithdrawal({ ...base, feeMinor: o.fee });
    case 'send':
      return ledger.send({ ...base, fromUserId: userId, toUserId: users[o.to] ?? '' });
  }
}

describe('ledger properties over random operation sequences (PostgreSQL)', () => {
  const database = useTestDatabase();
  let ledger: LedgerService;
  let runNumber = 0;

  beforeAll(() => {
    ledger = createLedgerService({ db: database.db, now: () => new Date('2030-01-01T00:00:00Z') });
  });

  it('conserves value, never goes negative, has one effect per key and always reconciles', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 25 }), async (ops) => {
        runNumber += 1;
        const db = database.db;
        const users = await Promise.all(Array.from({ length: USERS }, () => createUser(db)));
        const feesBefore = await balanceOf(db, 'system_fees', null, ASSET);
        let model: Model = { available: users.map(() => 0n), locked: users.map(() => 0n), fees: 0n };
        const done: { key: string; o: Exclude<Op, { type: 'retry' }> }[] = [];

        for (const [i, o] of ops.entries()) {
          if (o.type === 'retry') {
            // Replaying a posted request: same key, same contents, no second effect.
            const earlier = done[o.pick % Math.max(done.length, 1)];
            if (!earlier) continue;
            const again = await run(ledger, users, earlier.key, earlier.o);
            expect(again.created).toBe(false);
            continue;
          }
          const key = `prop-${runNumber}-${i}`;
          const expected = apply(model, o);
          if (expected === null) {
            await expect(run(ledger, users, key, o)).rejects.toMatchObject({ code: 'INSUFFICIENT_BALANCE' });
          } else {
            expect((await run(ledger, users, key, o)).created).toBe(true);
            model = expected;
            done.push({ key, o });
          }
        }

        for (const [u, userId] of users.entries()) {
          expect(await balanceOf(db, 'user_available', userId, ASSET)).toBe(model.available[u]);
          expect(await balanceOf(db, 'user_locked', userId, ASSET)).toBe(model.locked[u]);
        }
        expect((await balanceOf(db, 'system_fees', null, ASSET)) - feesBefore).toBe(model.fees);
        expect(await assetTotal(db, ASSET)).toBe(0n);
        expect(await negativeUserBalances(db)).toBe(0);
        expect((await reconcile(db)).ok).toBe(true);
      }),
      { numRuns: 40 },
    );
  }, 60_000);
});
