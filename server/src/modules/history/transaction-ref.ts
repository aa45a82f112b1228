import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';

/**
 * Whether `ref` names one of the user's own transactions: the id of a deposit, withdrawal, send,
 * conversion or exchange order, or a deposit/withdrawal/exchange transaction hash (any case).
 * The history module is the read side over those tables, so the question is asked here.
 */
export async function isOwnTransactionRef(db: Kysely<Database>, userId: string, ref: string): Promise<boolean> {
  const r = ref.trim().toLowerCase();
  const { rows } = await sql<{ found: boolean }>`
    select exists (select 1 from deposits where user_id = ${userId} and (id::text = ${r} or lower(tx_hash) = ${r}))
        or exists (select 1 from withdrawals where user_id = ${userId} and (id::text = ${r} or lower(tx_hash) = ${r}))
        or exists (select 1 from sends where (from_user_id = ${userId} or to_user_id = ${userId}) and id::text = ${r})
        or exists (select 1 from conversions where user_id = ${userId} and id::text = ${r})
        or exists (select 1 from exchange_orders where user_id = ${userId}
                   and (id::text = ${r} or lower(deposit_tx_hash) = ${r} or lower(payout_tx_hash) = ${r}))
      as found`.execute(db);
  return rows[0]?.found === true;
}
