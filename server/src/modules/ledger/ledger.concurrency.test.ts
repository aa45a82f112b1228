import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb } from '../../db/create-db.ts';
import type { Database } from '../../db/schema.ts';
import { createUser } from '../../test/app.ts';
import { useTestDatabase } from '../../test/database.ts';
import { reconcile } from './reconcile.ts';
import { createLedgerService, type LedgerService } from './service.ts';
import { balanceOf, negativeUserBalances } from './test-helpers.ts';

const CLIENTS = 32;
const ASSET = 'USDC';

/** Settles every promise; splits the outcomes, and fails on anything but INSUFFICIENT_BALANCE. */
async function outcomes<T>(tasks: Promise<T>[]): Promise<{ ok: T[]; insufficient: number }> {
  const settled = await Promise.allSettled(tasks);
  const ok: T[] = [];
  let insufficient = 0;
  for (const s of settled) {
    if (s.status === 'fulfilled') ok.push(s.value);
    else if ((s.reason as { code?: string }).code === 'INSUFFICIENT_BALANCE') insufficient += 1;
    else throw s.reason;
  }
  return { ok, insufficient };
}

describe(`ledger under ${CLIENTS} concurrent clients (PostgreSQL)`, () => {
  const database = useTestDatabase();
  // Its own pool: one connection per client, so the transactions really overlap in PostgreSQL.
  let pool: Kysely<Database>;
  let ledger: LedgerService;
  let hot: string;
  let others: string[];

  beforeAll(async () => {
    pool = createDb(database.url, { max: CLIENTS });
    ledger = createLedgerService({ db: pool, now: () => new Date('2030-01-01T00:00:00Z') });
    hot = await createUser(database.db);
    others = await Promise.all(Array.from({ length: 4 }, () => createUser(database.db)));
  });
  afterAll(() => pool.destroy());

  it('never overdraws one account raced by sends and locks, and loses no update', async () => {
    const funded = 100n;
    await ledger.deposit({ idempotencyKey: 'fund-hot', userId: hot, asset: ASSET, amountMinor: funded });
    // 64 requests for ~350 units against 100: many must fail, none may overdraw.
    const requests = Array.from({ length: CLIENTS * 2 }, (_, i) => ({
      kind: i % 3 === 0 ? ('lock' as const) : ('send' as const),
      amountMinor: BigInt((i * 7) % 10) + 1n,
      key: `race-${i}`,
      to: others[i % others.length] ?? '',
    }));
    const { ok, insufficient } = await outcomes(
      requests.map(async (r) => {
        const base = { idempotencyKey: r.key, asset: ASSET, amountMinor: r.amountMinor } as const;
        if (r.kind === 'lock') await ledger.lock({ ...base, userId: hot });
        else await ledger.send({ ...base, fromUserId: hot, toUserId: r.to });
        return r;
      }),
    );
    expect(ok.length).toBeGreaterThan(0);
    expect(insufficient).toBeGreaterThan(0);
    expect(ok.length + insufficient).toBe(requests.length);

    const spent = ok.reduce((sum, r) => sum + r.amountMinor, 0n);
    const lockedSum = ok.filter((r) => r.kind === 'lock').reduce((sum, r) => sum + r.amountMinor, 0n);
    expect(await balanceOf(database.db, 'user_available', hot, ASSET)).toBe(funded - spent);
    expect(await balanceOf(database.db, 'user_locked', hot, ASSET)).toBe(lockedSum);
    let received = 0n;
    for (const other of others) received += await balanceOf(database.db, 'user_available', other, ASSET);
    expect(received).toBe(spent - lockedSum);
    expect(await negativeUserBalances(database.db)).toBe(0);
    expect((await reconcile(database.db)).ok).toBe(true);
  });

  it('adds up concurrent credits to one account exactly', async () => {
    const before = await balanceOf(database.db, 'user_available', hot, ASSET);
    const amounts = Array.from({ length: CLIENTS * 2 }, (_, i) => BigInt(i + 1) * 1_000_003n);
    await Promise.all(
      amounts.map((amountMinor, i) =>
        ledger.deposit({ idempotencyKey: `credit-${i}`, userId: hot, asset: ASSET, amountMinor }),
      ),
    );
    const total = amounts.reduce((a, b) => a + b, 0n);
    expect(await balanceOf(database.db, 'user_available', hot, ASSET)).toBe(before + total);
  });

  it('does not deadlock when users send to each other in opposite directions', async () => {
    const [a, b] = others;
    if (!a || !b) throw new Error('users missing');
    await ledger.deposit({ idempotencyKey: 'fund-a', userId: a, asset: ASSET, amountMinor: 1_000n });
    await ledger.deposit({ idempotencyKey: 'fund-b', userId: b, asset: ASSET, amountMinor: 1_000n });
    const beforeA = await balanceOf(database.db, 'user_available', a, ASSET);
    const beforeB = await balanceOf(database.db, 'user_available', b, ASSET);
    // A deadlock would surface as PostgreSQL error 40P01 and fail outcomes().
    await outcomes(
      Array.from({ length: CLIENTS * 2 }, (_, i) =>
        i % 2 === 0
          ? ledger.send({ idempotencyKey: `ab-${i}`, fromUserId: a, toUserId: b, asset: ASSET, amountMinor: 3n })
          : ledger.send({ idempotencyKey: `ba-${i}`, fromUserId: b, toUserId: a, asset: ASSET, amountMinor: 3n }),
      ),
    );
    // Each direction moved 32 * 3; the pair's total is unchanged and so is each side.
    expect(await balanceOf(database.db, 'user_available', a, ASSET)).toBe(beforeA);
    expect(await balanceOf(database.db, 'user_available', b, ASSET)).toBe(beforeB);
  });

  it('gives one effect when 32 clients post the same idempotency key at once', async () => {
    const target = others[3] ?? '';
    const before = await balanceOf(database.db, 'user_available', target, ASSET);
    const results = await Promise.all(
      Array.from({ length: CLIENTS }, () =>
        ledger.deposit({ idempotencyKey: 'same-key', userId: target, asset: ASSET, amountMinor: 77n }),
      ),
    );
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(new Set(results.map((r) => r.transfer.id)).size).toBe(1);
    expect(await balanceOf(database.db, 'user_available', target, ASSET)).toBe(before + 77n);
    expect((await reconcile(database.db)).ok).toBe(true);
  });
});
