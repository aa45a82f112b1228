import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createUser, TEST_USER_HEADER } from '../../test/app.ts';
import { useTestDatabase } from '../../test/database.ts';
import { credit, T0, useConvertApp } from './test-helpers.ts';

/**
 * Migration 0038: the money functions find rows by key whatever the statistics say. Their generic
 * plans live as long as a pooled connection; planned while `conversions` was empty, the accept batch
 * used to scan every conversion of the table for each batch from then on.
 */
const database = useTestDatabase();
const convert = useConvertApp(database);

const quote = async (userId: string, to: 'BTC' | 'USDC') => {
  const res = await convert.app.inject({
    method: 'POST',
    url: '/api/convert/quotes',
    headers: { [TEST_USER_HEADER]: userId },
    payload: { from: 'USDT', to, amountMinor: '20000000' },
  });
  expect(res.statusCode).toBe(200);
  return res.json<{ quoteId: string }>().quoteId;
};

describe('convert_accept_batch plans', () => {
  it('reads quotes, conversions, accounts and transfers by key, planned on empty, freshly analysed tables', async () => {
    const user = await createUser(database.db);
    await credit(database.db, user, 'USDT', 10n ** 9n, `t:${user}`);
    const quotes = [await quote(user, 'BTC'), await quote(user, 'USDC')];
    await sql`analyze`.execute(database.db);

    const scanned = await database.db.transaction().execute(async (trx) => {
      const { rows } = await sql<{ outcome: string }>`
        select outcome from convert_accept_batch(${quotes}::uuid[], ${[user, user]}::uuid[], ${T0}, 1::smallint, 4::smallint)`.execute(
        trx,
      );
      expect(rows.map((r) => r.outcome)).toEqual(['converted', 'converted']);
      // This transaction's own scan counts, per table.
      return (
        await sql<{
          relname: string;
        }>`select relname from pg_stat_xact_user_tables where seq_scan > 0 order by relname`.execute(trx)
      ).rows.map((r) => r.relname);
    });
    expect(scanned).toEqual([]);
  });
});
