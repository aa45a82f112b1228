import fc from 'fast-check';
import { type Kysely, sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/schema.ts';
import { createUser } from '../../test/app.ts';
import { useTestDatabase } from '../../test/database.ts';
import { reconcile } from './reconcile.ts';
import { ensureAccount } from './repository.ts';

/**
 * `ledger_post_batch` (migrations 0028-0030) called directly. Its two paths — set-wise for a batch
 * that cannot overdraw and has no repeated key, group by group otherwise — must give exactly what
 * posting the same transfers one by one with `ledger_post` gives, each linked group in one
 * transaction that is rolled back when one of its transfers is refused for funds: the same result
 * per transfer, the same balances and the same journal (amount, before, after, in order).
 */

const at = new Date('2030-05-06T07:08:09.000Z');
const ACCOUNTS = 5;

interface Transfer {
  key: number;
  from: number;
  to: number;
  amount: number;
  deposit: boolean;
  /** Linked with the transfer before it (same group). */
  linked: boolean;
}
type Outcome = { status: 'ok'; created: boolean } | { status: 'insufficient' | 'key_reused' };

const transferArb: fc.Arbitrary<Transfer> = fc.record({
  key: fc.integer({ min: 0, max: 11 }), // a small pool: repeats, same and other contents, happen
  from: fc.integer({ min: 0, max: ACCOUNTS - 1 }),
  to: fc.integer({ min: 0, max: ACCOUNTS - 1 }),
  amount: fc.integer({ min: 1, max: 12 }),
  deposit: fc.boolean(),
  linked: fc.boolean(),
});

/**
 * Group number per transfer: a new group unless linked to the previous one. Only transfers whose key
 * is new in the batch are linked, so a group never mixes repeats with new transfers (refused whole
 * since issue 39, tested on its own below) and never holds a key twice.
 */
function groupsOf(transfers: Transfer[]): number[] {
  const groups: number[] = [];
  const seen = new Set<number>();
  let fresh = false; // the current group's transfers all have keys new in the batch
  for (const [i, t] of transfers.entries()) {
    const isNew = !seen.has(t.key);
    seen.add(t.key);
    const joins = i > 0 && t.linked && isNew && fresh;
    if (!joins) fresh = isNew;
    groups.push(joins ? (groups[i - 1] as number) : i + 1);
  }
  return groups;
}

describe('ledger_post_batch (SQL) equals posting one by one', () => {
  const database = useTestDatabase();
  let external: string;

  beforeAll(async () => {
    external = await ensureAccount(database.db, { kind: 'system_external', userId: null, asset: 'USDT' });
  });

  /** ACCOUNTS fresh user accounts, each funded with `funding` by a deposit. */
  async function world(funding: number[]): Promise<string[]> {
    const ids: string[] = [];
    for (const amount of funding) {
      const id = await ensureAccount(database.db, {
        kind: 'user_available',
        userId: await createUser(database.db),
        asset: 'USDT',
      });
      if (amount > 0)
        await oneByOne(
          `fund-${id}`,
          [{ key: 0, from: 0, to: 0, amount, deposit: true, linked: false }],
          [id, id, id, id, id],
        );
      ids.push(id);
    }
    return ids;
  }

  const legsOf = (t: Transfer, ids: string[]) => {
    const from = t.deposit ? external : (ids[t.from] as string);
    const to = ids[t.from === t.to && !t.deposit ? (t.to + 1) % ACCOUNTS : t.to] as string;
    return { accounts: [from, to], amounts: [-t.amount, t.amount] };
  };

  async function single(db: Kysely<Database>, key: string, accounts: string[], amounts: number[]): Promise<Outcome> {
    // In a savepoint: a refusal takes back this posting only (the caller may be inside a group's transaction).
    await sql`savepoint one`.execute(db);
    try {
      const { rows } = await sql<{ created: boolean }>`
        select created from ledger_post(${key}, 'internal_send', ${at}, '{}'::jsonb,
          ${accounts}::bigint[], ${amounts.map(String)}::numeric[])`.execute(db);
      await sql`release savepoint one`.execute(db);
      return { status: 'ok', created: rows[0]?.created ?? false };
    } catch (err) {
      await sql`rollback to savepoint one`.execute(db);
      const code = (err as { code?: string }).code;
      if (code === 'LG001') return { status: 'insufficient' };
      if (code === 'LG002') return { status: 'key_reused' };
      throw err;
    }
  }

  /** The reference: each group in one transaction, rolled back (all its new transfers refused) when one is short. */
  async function oneByOne(prefix: string, transfers: Transfer[], ids: string[]): Promise<Outcome[]> {
    const groups = groupsOf(transfers);
    const out: Outcome[] = [];
    for (let i = 0; i < transfers.length; ) {
      let end = i;
      while (end + 1 < transfers.length && groups[end + 1] === groups[i]) end += 1;
      const group = transfers.slice(i, end + 1);
      const results = await database.db.connection().execute(async (c) => {
        await sql`begin`.execute(c);
        const got: Outcome[] = [];
        for (const t of group) {
          const { accounts, amounts } = legsOf(t, ids);
          got.push(await single(c, `${prefix}-${t.key}`, accounts, amounts));
        }
        const short = got.some((g) => g.status === 'insufficient');
        await sql.raw(short ? 'rollback' : 'commit').execute(c);
        // A refused group refuses its new transfers; repeats and reused keys keep their own answers.
        return short ? got.map((g) => (g.status === 'ok' && g.created ? { status: 'insufficient' as const } : g)) : got;
      });
      out.push(...results);
      i = end + 1;
    }
    return out;
  }

  async function batch(prefix: string, transfers: Transfer[], ids: string[]): Promise<Outcome[]> {
    const legs = transfers.map((t) => legsOf(t, ids));
    const { rows } = await sql<{ status: Outcome['status']; created: boolean }>`
      select status, created from ledger_post_batch(
        ${transfers.map((t) => `${prefix}-${t.key}`)}::text[], ${transfers.map(() => 'internal_send')}::text[], ${at},
        ${transfers.map(() => '{}')}::jsonb[], ${transfers.map(() => 2)}::integer[],
        ${legs.flatMap((l) => l.accounts)}::bigint[], ${legs.flatMap((l) => l.amounts.map(String))}::numeric[],
        ${groupsOf(transfers)}::integer[]
      ) order by ord`.execute(database.db);
    return rows.map((r) => (r.status === 'ok' ? { status: 'ok', created: r.created } : { status: r.status }));
  }

  /** Each account's balance and its journal after funding, as (amount, before, after) in entry order. */
  async function books(ids: string[]) {
    const out: { balance: string; journal: string[] }[] = [];
    for (const id of ids) {
      const account = await database.db
        .selectFrom('ledger_accounts')
        .select('balance')
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      const entries = await database.db
        .selectFrom('ledger_entries')
        .select(['amount', 'balance_before', 'balance_after'])
        .where('account_id', '=', id)
        .orderBy('id')
        .execute();
      out.push({
        balance: account.balance,
        journal: entries.map((e) => `${e.amount}:${e.balance_before}:${e.balance_after}`),
      });
    }
    return out;
  }

  it('gives the same results, balances and journal as one ledger_post per transfer, a transaction per linked group', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 0, max: 30 }), { minLength: ACCOUNTS, maxLength: ACCOUNTS }),
        fc.array(transferArb, { minLength: 1, maxLength: 24 }),
        async (funding, transfers) => {
          run += 1;
          const batched = await world(funding);
          const reference = await world(funding);
          const got = await batch(`b${run}`, transfers, batched);
          const want = await oneByOne(`s${run}`, transfers, reference);
          expect(got).toEqual(want);
          expect(await books(batched)).toEqual(await books(reference));
        },
      ),
      { numRuns: 60, seed: 1406 },
    );
    expect((await reconcile(database.db)).ok).toBe(true);
  });

  it('takes the set-wise path for a safe batch: ids ascend in batch order, chains follow entry ids', async () => {
    const [a, b, c] = (await world([50, 0, 0, 0, 0])) as [string, string, string];
    // a -> b 10, a -> c 5, a deposit of 7 to b: a can pay all of it whatever the order.
    const { rows } = await sql<{ transfer_id: string }>`
      select transfer_id::text from ledger_post_batch(
        array['safe-1', 'safe-3', 'safe-4'], array['internal_send', 'internal_send', 'deposit'], ${at},
        array['{}', '{}', '{}']::jsonb[], array[2, 2, 2],
        ${[a, b, a, c, external, b]}::bigint[], array[-10, 10, -5, 5, -7, 7]::numeric[]) order by ord`.execute(
      database.db,
    );
    const ids = rows.map((r) => BigInt(r.transfer_id));
    expect([...ids].sort((x, y) => (x < y ? -1 : 1))).toEqual(ids);
    expect((await books([a, b, c])).map((x) => x.balance)).toEqual(['35', '17', '5']);
    expect((await reconcile(database.db)).ok).toBe(true);
  });

  it('refuses a malformed batch whole: a repeated account in a transfer, an unknown account, a zero amount', async () => {
    const [a, b] = (await world([10, 0, 0, 0, 0])) as [string, string];
    const call = (accounts: string[], amounts: number[]) =>
      sql`select * from ledger_post_batch(array['m-1', 'm-2'], array['internal_send', 'internal_send'], ${at},
        array['{}', '{}']::jsonb[], array[2, 2], ${accounts}::bigint[], ${amounts.map(String)}::numeric[])`.execute(
        database.db,
      );
    await expect(call([a, b, a, a], [-1, 1, -1, 1])).rejects.toMatchObject({ code: 'LG003' });
    await expect(call([a, b, a, '999999'], [-1, 1, -1, 1])).rejects.toMatchObject({ code: 'LG003' });
    await expect(call([a, b, a, b], [-1, 1, 0, 0])).rejects.toMatchObject({ code: 'LG003' });
    const transfers = await sql<{
      n: string;
    }>`select count(*)::text as n from ledger_transfers where idempotency_key like 'm-%'`.execute(database.db);
    expect(transfers.rows[0]?.n).toBe('0');
  });

  it('refuses a linked group that mixes a key posted before with new ones, as one error (issue 39)', async () => {
    const [a, b] = (await world([10, 0, 0, 0, 0])) as [string, string];
    const post = (keys: string[], groups: number[]) =>
      sql`select status, created from ledger_post_batch(${keys}::text[], ${keys.map(() => 'internal_send')}::text[], ${at},
        ${keys.map(() => '{}')}::jsonb[], ${keys.map(() => 2)}::integer[], ${keys.flatMap(() => [a, b])}::bigint[],
        ${keys.flatMap(() => ['-1', '1'])}::numeric[], ${groups}::integer[]) order by ord`.execute(database.db);
    await post(['g-1'], [1]);
    // g-1 posted before, g-2 new, linked: the old answer would post g-2 alone and call g-1 a repeat.
    await expect(post(['g-1', 'g-2'], [1, 1])).rejects.toMatchObject({ code: 'LG003' });
    // In one batch too: g-3 accepted in the first group, then linked with the new g-4.
    await expect(post(['g-3', 'g-3', 'g-4'], [1, 2, 2])).rejects.toMatchObject({ code: 'LG003' });
    const posted = await sql<{ k: string }>`
      select idempotency_key as k from ledger_transfers where idempotency_key like 'g-%' order by 1`.execute(
      database.db,
    );
    expect(posted.rows.map((r) => r.k)).toEqual(['g-1']);
    // A group that is all repeats is answered as repeats.
    await post(['g-5', 'g-6'], [1, 1]);
    const again = await post(['g-5', 'g-6'], [1, 1]);
    expect(again.rows).toEqual([
      { status: 'ok', created: false },
      { status: 'ok', created: false },
    ]);
    expect((await books([a, b])).map((x) => x.balance)).toEqual(['7', '3']);
  });
});
