import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestDatabase } from '../../test/database.ts';
import { reconcile } from './reconcile.ts';
import { ensureAccount } from './repository.ts';

/**
 * Issue 39 item 8: a transfer balances per ASSET. +5 USDT against -5 ETH sums to zero over the
 * transfer but creates 5 USDT from nothing: the journal trigger refuses it, and reconcile reports one
 * that got past it (triggers off, as a restore or a hand edit would).
 */
describe('ledger zero sum per asset', () => {
  const database = useTestDatabase();
  const at = new Date('2030-01-02T03:04:05Z');
  let usdt: string;
  let eth: string;

  beforeAll(async () => {
    usdt = await ensureAccount(database.db, { kind: 'system_external', userId: null, asset: 'USDT' });
    eth = await ensureAccount(database.db, { kind: 'system_external', userId: null, asset: 'ETH' });
  });

  const crossAsset = (key: string) => sql`
    with t as (insert into ledger_transfers (idempotency_key, kind, created_at) values (${key}, 'internal_send', ${at}) returning id)
    insert into ledger_entries (transfer_id, account_id, amount, balance_before, balance_after, created_at)
    select t.id, e.account, e.amount, 0, e.amount, ${at}
    from t, (values (${usdt}::bigint, 5::numeric), (${eth}::bigint, -5::numeric)) e(account, amount)`;

  it('the journal trigger refuses a transfer whose assets do not each sum to zero', async () => {
    await expect(crossAsset('cross-1').execute(database.db)).rejects.toThrow(/does not balance/);
    expect((await reconcile(database.db)).ok).toBe(true);
  });

  it('reconcile reports such a transfer even when its entries sum to zero over all assets', async () => {
    await database.db.connection().execute(async (c) => {
      await sql`begin`.execute(c);
      await sql`set local session_replication_role = replica`.execute(c);
      await crossAsset('cross-2').execute(c);
      await sql`commit`.execute(c);
    });
    const report = await reconcile(database.db);
    expect(report.ok).toBe(false);
    expect(report.unbalancedTransfers).toHaveLength(1);
    expect(report.unbalancedTransfers[0]).toMatchObject({ sumMinor: '0', entries: 2, assets: ['ETH', 'USDT'] });
  });
});
