import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../app.ts';
import { buildTestApp, createUser, TEST_USER_HEADER } from '../../test/app.ts';
import { useTestDatabase } from '../../test/database.ts';
import { LEG_AMOUNT_MAX_MINOR } from './model.ts';
import { postTransfer } from './post-transfer.ts';
import { reconcile } from './reconcile.ts';
import { ensureAccount } from './repository.ts';
import { createLedgerService, type LedgerService } from './service.ts';
import { assetTotal, balanceOf, countRows } from './test-helpers.ts';

const now = new Date('2030-01-02T03:04:05.000Z');

describe('ledger postings on PostgreSQL', () => {
  const database = useTestDatabase();
  let ledger: LedgerService;
  let alice: string;
  let bob: string;

  beforeAll(async () => {
    ledger = createLedgerService({ db: database.db, now: () => now });
    alice = await createUser(database.db);
    bob = await createUser(database.db);
  });

  it('credits a deposit from the external account, journaling before and after', async () => {
    const result = await ledger.deposit({
      idempotencyKey: 'dep-1',
      userId: alice,
      asset: 'USDT',
      amountMinor: 5_000_000n,
    });
    expect(result.created).toBe(true);
    expect(await balanceOf(database.db, 'user_available', alice, 'USDT')).toBe(5_000_000n);
    expect(await balanceOf(database.db, 'system_external', null, 'USDT')).toBe(-5_000_000n);
    const entries = await database.db
      .selectFrom('ledger_entries')
      .select(['amount', 'balance_before', 'balance_after'])
      .where('transfer_id', '=', result.transfer.id)
      .orderBy('amount')
      .execute();
    expect(entries).toEqual([
      { amount: '-5000000', balance_before: '0', balance_after: '-5000000' },
      { amount: '5000000', balance_before: '0', balance_after: '5000000' },
    ]);
  });

  it('keeps 18-decimal amounts beyond BIGINT exactly', async () => {
    const wei = 123_456_789_012_345_678_901_234_567_890n; // ~1.2 * 10^29, far above 2^63
    await ledger.deposit({ idempotencyKey: 'dep-eth-big', userId: alice, asset: 'ETH', amountMinor: wei });
    expect(await balanceOf(database.db, 'user_available', alice, 'ETH')).toBe(wei);
    expect(await assetTotal(database.db, 'ETH')).toBe(0n);
  });

  it('gives a retried request exactly one effect', async () => {
    const request = { idempotencyKey: 'dep-retry', userId: bob, asset: 'BTC', amountMinor: 700n } as const;
    const first = await ledger.deposit(request);
    const transfers = await countRows(database.db, 'ledger_transfers');
    const second = await ledger.deposit(request);
    expect(second).toMatchObject({ created: false, transfer: { id: first.transfer.id, kind: 'deposit' } });
    expect(await countRows(database.db, 'ledger_transfers')).toBe(transfers);
    expect(await balanceOf(database.db, 'user_available', bob, 'BTC')).toBe(700n);
  });

  it('refuses the same key for a different transfer', async () => {
    await expect(
      ledger.deposit({ idempotencyKey: 'dep-retry', userId: bob, asset: 'BTC', amountMinor: 701n }),
    ).rejects.toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED' });
    await expect(
      ledger.lock({ idempotencyKey: 'dep-retry', userId: bob, asset: 'BTC', amountMinor: 700n }),
    ).rejects.toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED' });
    expect(await balanceOf(database.db, 'user_available', bob, 'BTC')).toBe(700n);
  });

  it('refuses to overdraw with INSUFFICIENT_BALANCE and leaves no trace', async () => {
    const transfers = await countRows(database.db, 'ledger_transfers');
    await expect(
      ledger.send({
        idempotencyKey: 'send-too-much',
        fromUserId: bob,
        toUserId: alice,
        asset: 'BTC',
        amountMinor: 701n,
      }),
    ).rejects.toMatchObject({ code: 'INSUFFICIENT_BALANCE', statusCode: 409 });
    await expect(
      ledger.unlock({ idempotencyKey: 'unlock-nothing', userId: bob, asset: 'BTC', amountMinor: 1n }),
    ).rejects.toMatchObject({ code: 'INSUFFICIENT_BALANCE' });
    expect(await countRows(database.db, 'ledger_transfers')).toBe(transfers);
    // The key was not burnt: the same key can be used once the balance allows it.
    await ledger.send({
      idempotencyKey: 'send-too-much',
      fromUserId: bob,
      toUserId: alice,
      asset: 'BTC',
      amountMinor: 700n,
    });
    expect(await balanceOf(database.db, 'user_available', alice, 'BTC')).toBe(700n);
  });

  it('locks, unlocks and settles a withdrawal with the fee to system_fees', async () => {
    await ledger.deposit({ idempotencyKey: 'dep-w', userId: bob, asset: 'TRX', amountMinor: 100_000_000n });
    await ledger.lock({ idempotencyKey: 'lock-w', userId: bob, asset: 'TRX', amountMinor: 30_000_000n });
    await ledger.unlock({ idempotencyKey: 'unlock-w', userId: bob, asset: 'TRX', amountMinor: 10_000_000n });
    const settled = await ledger.settleWithdrawal({
      idempotencyKey: 'settle-w',
      userId: bob,
      asset: 'TRX',
      amountMinor: 20_000_000n,
      feeMinor: 1_000_000n,
    });
    expect(settled.transfer.legs).toHaveLength(3);
    expect(await balanceOf(database.db, 'user_available', bob, 'TRX')).toBe(80_000_000n);
    expect(await balanceOf(database.db, 'user_locked', bob, 'TRX')).toBe(0n);
    expect(await balanceOf(database.db, 'system_fees', null, 'TRX')).toBe(1_000_000n);
    expect(await balanceOf(database.db, 'system_external', null, 'TRX')).toBe(-81_000_000n);
    // Without a fee the transfer has two legs (no zero entries).
    await ledger.lock({ idempotencyKey: 'lock-w2', userId: bob, asset: 'TRX', amountMinor: 5n });
    const free = await ledger.settleWithdrawal({
      idempotencyKey: 'settle-w2',
      userId: bob,
      asset: 'TRX',
      amountMinor: 5n,
      feeMinor: 0n,
    });
    expect(free.transfer.legs).toHaveLength(2);
  });

  it('asserts well-formed transfers before touching the database', async () => {
    const a = await ensureAccount(database.db, { kind: 'user_available', userId: alice, asset: 'USDT' });
    const b = await ensureAccount(database.db, { kind: 'user_available', userId: bob, asset: 'USDT' });
    const eth = await ensureAccount(database.db, { kind: 'user_available', userId: bob, asset: 'ETH' });
    const post = (legs: { accountId: string; amountMinor: bigint }[], idempotencyKey = 'bad') =>
      database.db
        .transaction()
        .execute((trx) => postTransfer(trx, { idempotencyKey, kind: 'internal_send', legs }, now));
    await expect(
      post([
        { accountId: a, amountMinor: -1n },
        { accountId: b, amountMinor: 2n },
      ]),
    ).rejects.toThrow(/sum to zero/);
    await expect(
      post([
        { accountId: a, amountMinor: 0n },
        { accountId: b, amountMinor: 0n },
      ]),
    ).rejects.toThrow(/non-zero/);
    await expect(post([{ accountId: a, amountMinor: 1n }])).rejects.toThrow(/2\.\.8 legs/);
    const nine = Array.from({ length: 9 }, (_, i) => ({ accountId: String(i + 1), amountMinor: i === 8 ? -8n : 1n }));
    await expect(post(nine)).rejects.toThrow(/2\.\.8 legs/);
    const huge = LEG_AMOUNT_MAX_MINOR + 1n;
    await expect(
      post([
        { accountId: a, amountMinor: -huge },
        { accountId: b, amountMinor: huge },
      ]),
    ).rejects.toThrow(/MAX/);
    await expect(
      post([
        { accountId: a, amountMinor: -1n },
        { accountId: a, amountMinor: 1n },
      ]),
    ).rejects.toThrow(/one leg per account/);
    await expect(
      post([
        { accountId: a, amountMinor: -1n },
        { accountId: eth, amountMinor: 1n },
      ]),
      // The journal's per-asset balance trigger (0056) may refuse it before ledger_post's own check does.
    ).rejects.toThrow(/one asset|does not balance/);
    await expect(
      post([
        { accountId: a, amountMinor: -1n },
        { accountId: '999999', amountMinor: 1n },
      ]),
      // ledger_post's own test, or the journal's statement check (migration 0029) before it.
    ).rejects.toThrow(/existing account|does not balance/);
    await expect(
      post(
        [
          { accountId: a, amountMinor: -1n },
          { accountId: b, amountMinor: 1n },
        ],
        '',
      ),
    ).rejects.toThrow(/key length/);
    await expect(
      ledger.send({ idempotencyKey: 'self', fromUserId: alice, toUserId: alice, asset: 'USDT', amountMinor: 1n }),
    ).rejects.toThrow(/another user/);
    await expect(
      ledger.deposit({ idempotencyKey: 'neg', userId: alice, asset: 'USDT', amountMinor: -1n }),
    ).rejects.toThrow(/positive/);
  });

  it('enforces the invariants in the database too', async () => {
    const db = database.db;
    // CHECK: a user balance never below zero, whatever the code does.
    await expect(
      sql`update ledger_accounts set balance = -1 where kind = 'user_available' and user_id = ${alice}`.execute(db),
    ).rejects.toMatchObject({ code: '23514' });
    // The journal is immutable.
    await expect(sql`update ledger_entries set amount = amount + 1`.execute(db)).rejects.toThrow(/immutable/);
    await expect(sql`delete from ledger_entries`.execute(db)).rejects.toThrow(/immutable/);
    await expect(sql`truncate ledger_entries cascade`.execute(db)).rejects.toThrow(/immutable/);
    // A transfer whose entries do not sum to zero cannot commit.
    const account = await ensureAccount(db, { kind: 'system_external', userId: null, asset: 'DOGE' });
    await expect(
      db.transaction().execute(async (trx) => {
        const t = await trx
          .insertInto('ledger_transfers')
          .values({ idempotency_key: 'raw-unbalanced', kind: 'deposit', created_at: now })
          .returning('id')
          .executeTakeFirstOrThrow();
        await trx
          .insertInto('ledger_entries')
          .values({
            transfer_id: t.id,
            account_id: account,
            amount: '5',
            balance_before: '0',
            balance_after: '5',
            created_at: now,
          })
          .execute();
      }),
    ).rejects.toThrow(/does not balance/);
    // Only one system account per kind and asset.
    await expect(
      sql`insert into ledger_accounts (kind, user_id, asset) values ('system_external', null, 'DOGE')`.execute(db),
    ).rejects.toMatchObject({ code: '23505' });
    expect((await reconcile(db)).ok).toBe(true);
  });
});

describe('GET /api/me/balances', () => {
  const database = useTestDatabase();
  let app: App;
  afterAll(() => app.close());

  it('needs a signed-in user', async () => {
    app = buildTestApp({ db: database.db });
    const res = await app.inject({ method: 'GET', url: '/api/me/balances' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 'UNAUTHENTICATED' });
  });

  it('lists every coin with available and locked minor units as decimal strings', async () => {
    const userId = await createUser(database.db);
    const ledger = createLedgerService({ db: database.db, now: () => now });
    await ledger.deposit({ idempotencyKey: 'd1', userId, asset: 'ETH', amountMinor: 10n ** 21n });
    await ledger.lock({ idempotencyKey: 'l1', userId, asset: 'ETH', amountMinor: 1n });
    const res = await app.inject({ method: 'GET', url: '/api/me/balances', headers: { [TEST_USER_HEADER]: userId } });
    expect(res.statusCode).toBe(200);
    const body = res.json() as { asset: string; availableMinor: string; lockedMinor: string }[];
    expect(body.map((b) => b.asset)).toEqual(['BTC', 'ETH', 'USDT', 'USDC', 'TUSD', 'TRX', 'BNB', 'DOGE']);
    expect(body.find((b) => b.asset === 'ETH')).toEqual({
      asset: 'ETH',
      availableMinor: '999999999999999999999',
      lockedMinor: '1',
    });
    expect(body.find((b) => b.asset === 'BTC')).toEqual({ asset: 'BTC', availableMinor: '0', lockedMinor: '0' });
  });
});
