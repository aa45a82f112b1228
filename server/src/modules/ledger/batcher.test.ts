import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb } from '../../db/create-db.ts';
import type { Database } from '../../db/schema.ts';
import { createUser } from '../../test/app.ts';
import { useTestDatabase } from '../../test/database.ts';
import { createLedgerBatcher } from './batcher.ts';
import { reconcile } from './reconcile.ts';
import { ensureAccount } from './repository.ts';
import { createLedgerService } from './service.ts';
import { negativeUserBalances } from './test-helpers.ts';

const ASSET = 'USDT';
const now = () => new Date('2030-01-01T00:00:00Z');

describe('batched posting (ledger_post_batch)', () => {
  const database = useTestDatabase();
  let pool: Kysely<Database>;
  beforeAll(() => {
    pool = createDb(database.url, { max: 8 });
  });
  afterAll(() => pool.destroy());

  /** A user account funded with `amount` by a deposit; its id. */
  async function funded(amount: bigint): Promise<string> {
    const userId = await createUser(database.db);
    if (amount > 0n) {
      await createLedgerService({ db: database.db, now }).deposit({
        idempotencyKey: `fund:${userId}`,
        userId,
        asset: ASSET,
        amountMinor: amount,
      });
    }
    return ensureAccount(database.db, { kind: 'user_available', userId, asset: ASSET });
  }
  const balance = async (id: string) =>
    BigInt(
      (await database.db.selectFrom('ledger_accounts').select('balance').where('id', '=', id).executeTakeFirstOrThrow())
        .balance,
    );
  const send = (key: string, from: string, to: string, amount: bigint) => ({
    idempotencyKey: key,
    kind: 'internal_send' as const,
    legs: [
      { accountId: from, amountMinor: -amount },
      { accountId: to, amountMinor: amount },
    ],
  });

  it('applies a batch in order; a transfer refused for funds fails alone, its neighbours commit', async () => {
    const batcher = createLedgerBatcher({ db: pool, now, batchMax: 16, waitMs: 20 });
    const [a, b, c, d, e] = await Promise.all([funded(10n), funded(0n), funded(0n), funded(5n), funded(0n)]);
    const results = await Promise.allSettled([
      batcher.post(send('b1', a, b, 6n)),
      batcher.post(send('b2', a, c, 6n)), // 4 left after b1: refused
      batcher.post(send('b3', d, e, 1n)),
      batcher.post(send('b4', a, c, 4n)), // exactly what is left
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
    expect((results[1] as PromiseRejectedResult).reason).toMatchObject({ code: 'INSUFFICIENT_BALANCE', accountId: a });
    expect([await balance(a), await balance(b), await balance(c), await balance(d), await balance(e)]).toEqual([
      0n,
      6n,
      4n,
      4n,
      1n,
    ]);
    expect((await reconcile(database.db)).ok).toBe(true);
  });

  it('keeps idempotency within a batch, across batches and against other contents', async () => {
    const batcher = createLedgerBatcher({ db: pool, now, batchMax: 8, waitMs: 20 });
    const [a, b] = await Promise.all([funded(100n), funded(0n)]);
    const [first, again] = await Promise.all([batcher.post(send('k1', a, b, 7n)), batcher.post(send('k1', a, b, 7n))]);
    expect(first.created).toBe(true);
    expect(again).toMatchObject({ created: false, transfer: { id: first.transfer.id } });
    const later = await batcher.post(send('k1', a, b, 7n));
    expect(later).toMatchObject({ created: false, transfer: { id: first.transfer.id } });
    await expect(batcher.post(send('k1', a, b, 8n))).rejects.toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED' });
    expect(await balance(b)).toBe(7n);
  });

  it('many concurrent postings into one hot account, across batches in flight at once, sum exactly', async () => {
    const batcher = createLedgerBatcher({ db: pool, now, batchMax: 32, waitMs: 1, inFlightMax: 4 });
    const hot = await funded(0n);
    const senders = await Promise.all(Array.from({ length: 20 }, () => funded(1_000n)));
    const posts = Array.from({ length: 400 }, (_, i) =>
      batcher.post(send(`hot-${i}`, senders[i % 20] as string, hot, 3n)),
    );
    const settled = await Promise.allSettled(posts);
    expect(settled.filter((s) => s.status === 'rejected')).toEqual([]);
    expect(await balance(hot)).toBe(1_200n);
    expect(await negativeUserBalances(database.db)).toBe(0);
    expect((await reconcile(database.db)).ok).toBe(true);
  });

  it('answers LEDGER_BUSY at once when the queue is full, instead of growing it', async () => {
    const batcher = createLedgerBatcher({ db: pool, now, batchMax: 2, waitMs: 50, inFlightMax: 1, queueMax: 2 });
    const [a, b] = await Promise.all([funded(100n), funded(0n)]);
    const posts = Array.from({ length: 6 }, (_, i) => batcher.post(send(`busy-${i}`, a, b, 1n)));
    const settled = await Promise.allSettled(posts);
    const busy = settled.filter(
      (s) => s.status === 'rejected' && (s.reason as { code?: string }).code === 'LEDGER_BUSY',
    );
    expect(busy.length).toBeGreaterThan(0);
    const done = settled.filter((s) => s.status === 'fulfilled').length;
    await batcher.drain();
    expect(await balance(b)).toBe(BigInt(done));
  });
});
