import { type Kysely, sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { createDb } from '../../db/create-db.ts';
import type { Database } from '../../db/schema.ts';
import { createUser } from '../../test/app.ts';
import { useTestDatabase } from '../../test/database.ts';
import { InsufficientBalanceError } from './errors.ts';
import { postTransferToAccounts } from './post-transfer.ts';
import { reconcile } from './reconcile.ts';
import { ensureAccount } from './repository.ts';
import { createLedgerService } from './service.ts';
import { balanceOf, countRows } from './test-helpers.ts';

/**
 * The SQL functions of migration 0011 called directly, as a caller bypassing the TypeScript
 * asserts would: every refusal must come from the database itself.
 */

const at = new Date('2030-03-04T05:06:07.000Z');

interface Posted {
  transfer_id: string;
  created: boolean;
  created_at: Date;
}

/** ledger_post in its own transaction: its deferred zero-sum check runs at this commit. */
function post(db: Kysely<Database>, key: string, ids: string[], amounts: string[], kind = 'internal_send') {
  return db.transaction().execute(async (trx) => {
    const { rows } = await sql<Posted>`
      select * from ledger_post(${key}, ${kind}, ${at}, '{"via":"sql"}'::jsonb, ${ids}::bigint[], ${amounts}::numeric[])`.execute(
      trx,
    );
    return rows[0];
  });
}

describe('ledger_post (SQL) refuses on its own', () => {
  const database = useTestDatabase();
  let userA: string;
  let userB: string;
  let a: string;
  let b: string;
  let external: string;
  let ethAccount: string;

  beforeAll(async () => {
    const db = database.db;
    userA = await createUser(db);
    userB = await createUser(db);
    a = await ensureAccount(db, { kind: 'user_available', userId: userA, asset: 'USDT' });
    b = await ensureAccount(db, { kind: 'user_available', userId: userB, asset: 'USDT' });
    external = await ensureAccount(db, { kind: 'system_external', userId: null, asset: 'USDT' });
    ethAccount = await ensureAccount(db, { kind: 'user_available', userId: userB, asset: 'ETH' });
  });

  it('posts, journals before and after, and lets only the external account go negative', async () => {
    const db = database.db;
    const deposit = await post(db, 'sql-dep', [external, a], ['-100', '100'], 'deposit');
    expect(deposit).toMatchObject({ created: true, created_at: at });
    const entries = await db
      .selectFrom('ledger_entries')
      .select(['account_id', 'amount', 'balance_before', 'balance_after', 'created_at'])
      .where('transfer_id', '=', deposit?.transfer_id ?? '')
      .orderBy('account_id')
      .execute();
    expect(entries).toEqual(
      [
        { account_id: a, amount: '100', balance_before: '0', balance_after: '100', created_at: at },
        { account_id: external, amount: '-100', balance_before: '0', balance_after: '-100', created_at: at },
      ].sort((x, y) => Number(x.account_id) - Number(y.account_id)),
    );
    const metadata = await db
      .selectFrom('ledger_transfers')
      .select(['metadata', 'kind'])
      .where('id', '=', deposit?.transfer_id ?? '')
      .executeTakeFirst();
    expect(metadata).toEqual({ metadata: { via: 'sql' }, kind: 'deposit' });
  });

  it('refuses to take a user balance below zero with LG001 naming the account, leaving no trace', async () => {
    const db = database.db;
    const transfers = await countRows(db, 'ledger_transfers');
    await expect(post(db, 'sql-overdraw', [a, b], ['-101', '101'])).rejects.toMatchObject({
      code: 'LG001',
      detail: a,
    });
    expect(await countRows(db, 'ledger_transfers')).toBe(transfers);
    expect(await balanceOf(db, 'user_available', userA, 'USDT')).toBe(100n);
    // Exactly the whole balance is fine.
    await post(db, 'sql-overdraw', [a, b], ['-100', '100']);
    expect(await balanceOf(db, 'user_available', userA, 'USDT')).toBe(0n);
  });

  it('answers a retried key with the earlier transfer and refuses other contents with LG002', async () => {
    const db = database.db;
    const first = await post(db, 'sql-retry', [b, a], ['-7', '7']);
    // The same legs in another order are the same transfer.
    const again = await post(db, 'sql-retry', [a, b], ['7', '-7']);
    expect(again).toEqual({ ...first, created: false });
    const refused = { code: 'LG002' };
    await expect(post(db, 'sql-retry', [b, a], ['-8', '8'])).rejects.toMatchObject(refused);
    await expect(post(db, 'sql-retry', [b, a], ['-7', '7'], 'lock')).rejects.toMatchObject(refused);
    await expect(post(db, 'sql-retry', [b, external], ['-7', '7'])).rejects.toMatchObject(refused);
    await expect(post(db, 'sql-retry', [b, a, external], ['-7', '6', '1'])).rejects.toMatchObject(refused);
    expect(await balanceOf(db, 'user_available', userA, 'USDT')).toBe(7n);
  });

  it('refuses malformed postings (LG003 or the constraints of migration 0006)', async () => {
    const db = database.db;
    const transfers = await countRows(db, 'ledger_transfers');
    const malformed = { code: 'LG003' };
    await expect(post(db, 'bad-1', [a], ['1'])).rejects.toMatchObject(malformed);
    await expect(post(db, 'bad-2', [a, b], ['1', '-1', '0'])).rejects.toMatchObject(malformed);
    const nine = Array.from({ length: 9 }, (_, i) => String(i + 1));
    await expect(post(db, 'bad-3', nine, ['8', ...Array(8).fill('-1')])).rejects.toMatchObject(malformed);
    // An unknown account leaves its leg out of the journal: the statement check (migration 0029) refuses first.
    await expect(post(db, 'bad-4', [a, '999999'], ['-1', '1'])).rejects.toThrow(/existing account|does not balance/);
    await expect(post(db, 'bad-5', [b, ethAccount], ['-1', '1'])).rejects.toThrow(/one asset|does not balance/);
    // Refused by the constraints of migration 0006 rather than by ledger_post's own tests.
    await expect(post(db, 'bad-6', [b, a], ['0', '0'])).rejects.toMatchObject({ code: '23514' });
    await expect(post(db, 'bad-8', [b, a], ['-2', '1'])).rejects.toThrow(/does not balance/);
    await expect(post(db, 'bad-7', [b, b], ['-1', '1'])).rejects.toThrow(/distinct existing account|does not balance/);
    await expect(post(db, 'bad-9', [b, a], ['-1', null as unknown as string])).rejects.toMatchObject(malformed);
    await expect(post(db, 'bad-10', [b, null as unknown as string], ['-1', '1'])).rejects.toMatchObject(malformed);
    expect(await countRows(db, 'ledger_transfers')).toBe(transfers);
    expect((await reconcile(db)).ok).toBe(true);
  });

  it('uses generic plans (custom plans would be re-planned on every call) that follow the keys (0038)', async () => {
    const { rows } = await sql<{ proname: string; proconfig: string[] | null }>`
      select proname, proconfig from pg_proc where proname in ('ledger_post', 'ledger_account_ids') order by proname`.execute(
      database.db,
    );
    expect(rows).toEqual([
      { proname: 'ledger_account_ids', proconfig: ['plan_cache_mode=force_generic_plan', 'enable_seqscan=off'] },
      { proname: 'ledger_post', proconfig: ['plan_cache_mode=force_generic_plan', 'enable_seqscan=off'] },
    ]);
  });
});

describe('ledger_account_ids (SQL) and postTransferToAccounts', () => {
  const database = useTestDatabase();

  const ids = (kinds: string[], users: (string | null)[], assets: string[]) =>
    sql<{ ids: string[] }>`
      select ledger_account_ids(${kinds}::text[], ${users}::uuid[], ${assets}::text[])::text[] as ids`
      .execute(database.db)
      .then((r) => r.rows[0]?.ids);

  it('creates missing accounts, then finds them, in the order asked', async () => {
    const user = await createUser(database.db);
    const kinds = ['user_locked', 'system_external', 'user_available'];
    const users = [user, null, user];
    const first = await ids(kinds, users, ['BTC', 'BTC', 'BTC']);
    expect(first).toHaveLength(3);
    expect(await ids(kinds, users, ['BTC', 'BTC', 'BTC'])).toEqual(first);
    expect(await ids([...kinds].reverse(), [...users].reverse(), ['BTC', 'BTC', 'BTC'])).toEqual(
      [...(first ?? [])].reverse(),
    );
    const external = await ensureAccount(database.db, { kind: 'system_external', userId: null, asset: 'BTC' });
    expect(first?.[1]).toBe(external);
  });

  it('refuses a malformed reference list', async () => {
    await expect(ids([], [], [])).rejects.toMatchObject({ code: 'LG003' });
    await expect(ids(['system_fees'], [null, null], ['BTC'])).rejects.toMatchObject({ code: 'LG003' });
    // A system kind with a user breaks the owner CHECK of migration 0006.
    const user = await createUser(database.db);
    await expect(ids(['system_fees'], [user], ['BTC'])).rejects.toMatchObject({ code: '23514' });
  });

  it('posts on references in one statement and maps refusals to domain errors', async () => {
    const db = database.db;
    const user = await createUser(db);
    const available = { kind: 'user_available' as const, userId: user, asset: 'TRX' as const };
    const external = { kind: 'system_external' as const, userId: null, asset: 'TRX' as const };
    const deposit = await db.transaction().execute((trx) =>
      postTransferToAccounts(
        trx,
        {
          idempotencyKey: 'ref-dep',
          kind: 'deposit',
          legs: [
            { account: external, amountMinor: -50n },
            { account: available, amountMinor: 50n },
          ],
        },
        at,
      ),
    );
    const availableId = await ensureAccount(db, available);
    expect(deposit.created).toBe(true);
    expect(deposit.transfer.legs.map((l) => l.accountId)).toEqual([await ensureAccount(db, external), availableId]);
    const overdraw = db.transaction().execute((trx) =>
      postTransferToAccounts(
        trx,
        {
          idempotencyKey: 'ref-send',
          kind: 'internal_send',
          legs: [
            { account: available, amountMinor: -51n },
            { account: external, amountMinor: 51n },
          ],
        },
        at,
      ),
    );
    await expect(overdraw).rejects.toBeInstanceOf(InsufficientBalanceError);
    await expect(overdraw).rejects.toMatchObject({ accountId: availableId });
    await expect(
      db.transaction().execute((trx) =>
        postTransferToAccounts(
          trx,
          {
            idempotencyKey: 'ref-twice',
            kind: 'internal_send',
            legs: [
              { account: available, amountMinor: -1n },
              { account: available, amountMinor: 1n },
            ],
          },
          at,
        ),
      ),
    ).rejects.toThrow(/one leg per account/);
  });

  it('creates a new user’s accounts once when 32 clients credit them at the same time', async () => {
    const pool = createDb(database.url, { max: 32 });
    try {
      const ledger = createLedgerService({ db: pool, now: () => at });
      const user = await createUser(database.db);
      const results = await Promise.all(
        Array.from({ length: 32 }, (_, i) =>
          ledger.deposit({ idempotencyKey: `new-user-${i}`, userId: user, asset: 'DOGE', amountMinor: BigInt(i + 1) }),
        ),
      );
      expect(results.every((r) => r.created)).toBe(true);
      const accounts = await database.db
        .selectFrom('ledger_accounts')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('asset', '=', 'DOGE')
        .executeTakeFirstOrThrow();
      expect(Number(accounts.n)).toBe(2); // the user's available account and system_external
      expect(await balanceOf(database.db, 'user_available', user, 'DOGE')).toBe((32n * 33n) / 2n);
      expect((await reconcile(database.db)).ok).toBe(true);
    } finally {
      await pool.destroy();
    }
  });
});
