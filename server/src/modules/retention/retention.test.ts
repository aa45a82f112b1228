import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, TEST_USER_HEADER } from '../../test/app.ts';
import { useTestDatabase } from '../../test/database.ts';
import { seedLiquidity } from '../convert/liquidity.ts';
import { buildConvertApp, createClock, credit, startTestPrices, T0 } from '../convert/test-helpers.ts';
import { sweep } from './retention.ts';

const database = useTestDatabase();
const clock = createClock();
const DAY_MS = 86_400_000;
let stop: () => Promise<void>;
let userId: string;

/** Quotes through the real API: one accepted, one replaced by a newer one, one left alone. */
async function quotes() {
  const { prices, sandbox } = await startTestPrices(clock);
  const app = buildConvertApp(database.db, clock, prices);
  stop = async () => {
    await app.close();
    await sandbox.close();
  };
  const headers = { [TEST_USER_HEADER]: userId };
  const quote = async () =>
    (
      await app.inject({
        method: 'POST',
        url: '/api/convert/quotes',
        headers,
        payload: { from: 'USDT', to: 'BTC', amountMinor: '20000000' },
      })
    ).json().quoteId as string;
  const accepted = await quote();
  const done = await app.inject({ method: 'POST', url: `/api/convert/quotes/${accepted}/accept`, headers });
  expect(done.json().outcome).toBe('converted');
  const [older, newer] = [await quote(), await quote()];
  await database.db.updateTable('convert_quotes').set({ replaced_by: newer }).where('id', '=', older).execute();
  return { accepted, older, newer };
}

async function rateLock(expiresAt: Date) {
  const { id } = await database.db
    .insertInto('exchange_rate_locks')
    .values({
      user_id: userId,
      send_coin: 'USDT',
      send_network: 'ethereum',
      receive_coin: 'BNB',
      receive_network: 'bsc',
      send_amount_minor: '100000000',
      rate_scaled: '1',
      created_at: new Date(expiresAt.getTime() - 60_000),
      expires_at: expiresAt,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

async function session(expiresAt: Date, revokedAt: Date | null = null) {
  const { id } = await database.db
    .insertInto('sessions')
    .values({
      user_id: userId,
      token_hash: randomBytes(32),
      created_at: T0,
      last_seen_at: T0,
      expires_at: expiresAt,
      revoked_at: revokedAt,
      user_agent: null,
      ip: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

const ids = async (table: 'convert_quotes' | 'exchange_rate_locks' | 'sessions') =>
  (await database.db.selectFrom(table).select('id').execute()).map((r) => r.id);

describe('retention sweep', () => {
  beforeAll(async () => {
    userId = await createUser(database.db);
    await seedLiquidity(database.db, T0);
    await credit(database.db, userId, 'USDT', 1_000_000_000n, 'retention:credit');
  });
  afterAll(async () => stop?.());

  it('deletes unaccepted quotes a day after expiry, keeps accepted ones, clears a replaced_by link', async () => {
    const q = await quotes();
    expect(await sweep(database.db, clock.now())).toMatchObject({ convert_quotes: 0 });
    const later = new Date(T0.getTime() + DAY_MS + 60_000);
    expect(await sweep(database.db, later)).toMatchObject({ convert_quotes: 2 });
    expect(await ids('convert_quotes')).toEqual([q.accepted]);
  });

  it('deletes unused rate locks, old codes, old sessions and idle throttle counters; keeps what is in use', async () => {
    const now = new Date(T0.getTime() + 40 * DAY_MS);
    const oldLock = await rateLock(new Date(now.getTime() - 2 * DAY_MS));
    const freshLock = await rateLock(new Date(now.getTime() - 60_000));
    const oldSession = await session(new Date(now.getTime() - 31 * DAY_MS));
    const revokedLongAgo = await session(new Date(now.getTime() + DAY_MS), new Date(now.getTime() - 31 * DAY_MS));
    const live = await session(new Date(now.getTime() + DAY_MS));
    await database.db
      .insertInto('throttles')
      .values([
        { key: 'identifier:gone', failures: 3, first_failure_at: T0, last_failure_at: T0, locked_until: null },
        // Still locked: kept whatever its age.
        {
          key: 'identifier:locked',
          failures: 9,
          first_failure_at: T0,
          last_failure_at: T0,
          locked_until: new Date(now.getTime() + 60_000),
        },
        { key: 'identifier:recent', failures: 1, first_failure_at: now, last_failure_at: now, locked_until: null },
      ])
      .execute();

    const deleted = await sweep(database.db, now, { batchRows: 1 });
    expect(deleted).toMatchObject({ exchange_rate_locks: 1, sessions: 2, throttles: 1 });
    const locks = await ids('exchange_rate_locks');
    expect(locks).toContain(freshLock);
    expect(locks).not.toContain(oldLock);
    const sessions = await ids('sessions');
    expect(sessions).toContain(live);
    expect(sessions).not.toContain(oldSession);
    expect(sessions).not.toContain(revokedLongAgo);
    const keys = (await database.db.selectFrom('throttles').select('key').execute()).map((r) => r.key).sort();
    expect(keys).toEqual(['identifier:locked', 'identifier:recent']);
  });

  it('stops after maxBatches statements per table (bounded work per sweep)', async () => {
    const now = new Date(T0.getTime() + 80 * DAY_MS);
    for (let i = 0; i < 5; i++) await rateLock(new Date(now.getTime() - 2 * DAY_MS));
    expect(await sweep(database.db, now, { batchRows: 2, maxBatches: 1 })).toMatchObject({ exchange_rate_locks: 2 });
    expect(await sweep(database.db, now, { batchRows: 2, maxBatches: 10 })).toMatchObject({ exchange_rate_locks: 4 }); // 3 more + the earlier fresh one, now old;
  });
});
