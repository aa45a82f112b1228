import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

export const LEDGER_PAGE_DEFAULT = 50;
export const LEDGER_PAGE_MAX = 200;

/**
 * One page of a user's ledger entries, newest first, keyset-paged on the entry id (bigserial): `before`
 * is the last id of the previous page, so a page costs the same however deep it is and rows booked
 * meanwhile never shift a page. `next` is the cursor of the following page, null on the last.
 */
export async function ledgerPage(
  db: Kysely<Database>,
  userId: string,
  page: { before?: string; limit: number },
): Promise<{ items: LedgerItem[]; next: string | null }> {
  const limit = Math.min(Math.max(1, page.limit), LEDGER_PAGE_MAX);
  let query = db
    .selectFrom('ledger_entries as e')
    .innerJoin('ledger_accounts as a', 'a.id', 'e.account_id')
    .innerJoin('ledger_transfers as t', 't.id', 'e.transfer_id')
    .select(['e.id', 'e.transfer_id', 't.kind', 'a.asset', 'a.kind as account', 'e.amount', 'e.balance_after'])
    .select('e.created_at')
    .where('a.user_id', '=', userId)
    .orderBy('e.id', 'desc')
    .limit(limit + 1);
  if (page.before !== undefined) query = query.where('e.id', '<', page.before);
  const rows = await query.execute();
  const items = rows.slice(0, limit).map((r) => ({
    id: r.id,
    transferId: r.transfer_id,
    kind: r.kind,
    asset: r.asset,
    account: r.account,
    amountMinor: r.amount,
    balanceAfterMinor: r.balance_after,
    createdAt: r.created_at.toISOString(),
  }));
  const last = items.at(-1);
  return { items, next: rows.length > limit && last ? last.id : null };
}

export interface LedgerItem {
  id: string;
  transferId: string;
  kind: string;
  asset: string;
  account: string;
  amountMinor: string;
  balanceAfterMinor: string;
  createdAt: string;
}
