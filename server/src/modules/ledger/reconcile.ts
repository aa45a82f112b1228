import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';

/** At most this many offenders of each kind are listed; the counts are always exact. */
export const RECONCILE_LIST_MAX = 20;

export interface ReconcileReport {
  ok: boolean;
  accounts: number;
  transfers: number;
  entries: number;
  /** Accounts whose balance is not the sum of their entries. */
  balanceMismatches: { accountId: string; balanceMinor: string; entriesSumMinor: string }[];
  balanceMismatchCount: number;
  /**
   * Transfers whose entries do not sum to zero in every asset, or that have fewer than two entries
   * (`assets`: the assets that do not balance; +5 USDT and -5 ETH sum to 0 but balance in neither).
   */
  unbalancedTransfers: { transferId: string; sumMinor: string; entries: number; assets: string[] }[];
  unbalancedTransferCount: number;
  /** Entries whose balance_before is not the previous entry's balance_after on the same account. */
  brokenChains: number;
  /** Sum of all entries (must be 0). */
  entriesTotalMinor: string;
  /** Sum of all balances per asset (must be 0: the external account mirrors everything held inside). */
  assetTotals: { asset: string; totalMinor: string }[];
}

async function count(db: Kysely<Database>, table: 'ledger_accounts' | 'ledger_transfers' | 'ledger_entries') {
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Checks the ledger against its own journal. Runs in one REPEATABLE READ, read-only transaction:
 * one snapshot, so postings committed meanwhile cannot show up as false mismatches.
 */
export async function reconcile(db: Kysely<Database>): Promise<ReconcileReport> {
  return db
    .transaction()
    .setIsolationLevel('repeatable read')
    .setAccessMode('read only')
    .execute(async (trx) => {
      const mismatches = await sql<{ account_id: string; balance: string; entries_sum: string }>`
        select a.id as account_id, a.balance::text as balance, coalesce(e.total, 0)::text as entries_sum
        from ledger_accounts a
        left join (select account_id, sum(amount) as total from ledger_entries group by account_id) e
          on e.account_id = a.id
        where a.balance <> coalesce(e.total, 0)
        order by a.id`.execute(trx);
      const unbalanced = await sql<{ transfer_id: string; total: string; entries: string; assets: string[] | null }>`
        with per_asset as (
          select e.transfer_id, a.asset, sum(e.amount) as total, count(*) as n
          from ledger_entries e join ledger_accounts a on a.id = e.account_id
          group by e.transfer_id, a.asset
        )
        select t.id as transfer_id, coalesce(sum(p.total), 0)::text as total, coalesce(sum(p.n), 0)::text as entries,
               array_agg(p.asset order by p.asset) filter (where p.total <> 0) as assets
        from ledger_transfers t left join per_asset p on p.transfer_id = t.id
        group by t.id
        having coalesce(sum(p.n), 0) < 2 or coalesce(bool_or(p.total <> 0), false)
        order by t.id`.execute(trx);
      const chains = await sql<{ n: string }>`
        select count(*)::text as n from (
          select balance_before, lag(balance_after, 1, 0::numeric) over (partition by account_id order by id) as previous_after
          from ledger_entries
        ) c where c.balance_before <> c.previous_after`.execute(trx);
      const total = await sql<{ total: string }>`
        select coalesce(sum(amount), 0)::text as total from ledger_entries`.execute(trx);
      const assets = await sql<{ asset: string; total: string }>`
        select asset, sum(balance)::text as total from ledger_accounts group by asset order by asset`.execute(trx);

      const brokenChains = Number(chains.rows[0]?.n ?? 0);
      const entriesTotalMinor = total.rows[0]?.total ?? '0';
      const assetTotals = assets.rows.map((r) => ({ asset: r.asset, totalMinor: r.total }));
      return {
        ok:
          mismatches.rows.length === 0 &&
          unbalanced.rows.length === 0 &&
          brokenChains === 0 &&
          entriesTotalMinor === '0' &&
          assetTotals.every((a) => a.totalMinor === '0'),
        accounts: await count(trx, 'ledger_accounts'),
        transfers: await count(trx, 'ledger_transfers'),
        entries: await count(trx, 'ledger_entries'),
        balanceMismatches: mismatches.rows.slice(0, RECONCILE_LIST_MAX).map((r) => ({
          accountId: r.account_id,
          balanceMinor: r.balance,
          entriesSumMinor: r.entries_sum,
        })),
        balanceMismatchCount: mismatches.rows.length,
        unbalancedTransfers: unbalanced.rows.slice(0, RECONCILE_LIST_MAX).map((r) => ({
          transferId: r.transfer_id,
          sumMinor: r.total,
          entries: Number(r.entries),
          assets: r.assets ?? [],
        })),
        unbalancedTransferCount: unbalanced.rows.length,
        brokenChains,
        entriesTotalMinor,
        assetTotals,
      };
    });
}

/** Human-readable summary lines for `npm run ops -- reconcile`. */
export function formatReport(report: ReconcileReport): string[] {
  const lines = [
    `ledger: ${report.accounts} accounts, ${report.transfers} transfers, ${report.entries} entries`,
    `entries total: ${report.entriesTotalMinor} (must be 0)`,
    ...report.assetTotals.map((a) => `asset ${a.asset}: balances total ${a.totalMinor} (must be 0)`),
    `balance mismatches: ${report.balanceMismatchCount}`,
    ...report.balanceMismatches.map(
      (m) => `  account ${m.accountId}: balance ${m.balanceMinor}, entries sum ${m.entriesSumMinor}`,
    ),
    `unbalanced transfers: ${report.unbalancedTransferCount}`,
    ...report.unbalancedTransfers.map(
      (t) =>
        `  transfer ${t.transferId}: sum ${t.sumMinor}, ${t.entries} entries${t.assets.length > 0 ? `, unbalanced in ${t.assets.join(', ')}` : ''}`,
    ),
    `broken before/after chains: ${report.brokenChains}`,
    report.ok ? 'RECONCILED' : 'MISMATCH',
  ];
  return lines;
}
