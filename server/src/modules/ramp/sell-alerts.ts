import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { RampSellAlertsTable } from '../../db/schema-ramp.ts';

export type SellAlertKind = RampSellAlertsTable['kind'];
export interface SellAlert {
  id: string;
  user_id: string;
  state: string;
  state_reason: string | null;
  withdrawal_id: string | null;
  kind: SellAlertKind;
}

/** How often an alert whose condition lasts is logged again (a refund still pending, a transfer missing). */
export const SELL_REALERT_MS = 3_600_000;
const LIMIT = 100;

/**
 * Sells an operator must look at, as they stand now (migration 0043 records which were alerted):
 * - refund_pending: the provider failed the sell after our coins left; open until refunded;
 * - terms_mismatch: the payout was refused (provider's transaction differs from the order); alerted once;
 * - completed_without_transfer: completed (before the hold, or by hand) though our transfer failed or
 *   never existed; open until an operator resolves the alert.
 */
export async function openSellAlerts(db: Kysely<Database>, limit = LIMIT): Promise<SellAlert[]> {
  const base = db
    .selectFrom('ramp_orders as o')
    .select(['o.id', 'o.user_id', 'o.state', 'o.state_reason', 'o.withdrawal_id'])
    .where('o.side', '=', 'sell');
  const unresolved = (kind: SellAlertKind, evenIfAlerted: boolean) =>
    sql<boolean>`not exists (select 1 from ramp_sell_alerts a where a.order_id = o.id and a.kind = ${kind}
      and (a.resolved_at is not null or ${!evenIfAlerted}))`;
  const refund = await base.where('o.state', '=', 'refund_pending').limit(limit).execute();
  const mismatch = await base
    .where('o.state', '=', 'failed')
    .where('o.state_reason', 'like', 'provider_terms_mismatch%')
    .where(unresolved('terms_mismatch', false))
    .limit(limit)
    .execute();
  const completed = await base
    .where('o.state', '=', 'completed')
    .where((eb) =>
      eb.or([
        eb('o.withdrawal_id', 'is', null),
        eb.exists(
          eb
            .selectFrom('withdrawals as w')
            .select('w.id')
            .whereRef('w.id', '=', 'o.withdrawal_id')
            .where('w.state', 'in', ['transfer_failed', 'review_rejected']),
        ),
      ]),
    )
    .where(unresolved('completed_without_transfer', true))
    .limit(limit)
    .execute();
  return [
    ...refund.map((o) => ({ ...o, kind: 'refund_pending' as const })),
    ...mismatch.map((o) => ({ ...o, kind: 'terms_mismatch' as const })),
    ...completed.map((o) => ({ ...o, kind: 'completed_without_transfer' as const })),
  ];
}

/**
 * The open alerts this caller must log now: never alerted, or last alerted at least `reAlertMs` ago
 * and not resolved (a mismatch is alerted once). One conditional upsert per alert claims it, so with
 * several instances (or after a restart) each alert is logged once per interval.
 */
export async function claimDueSellAlerts(
  db: Kysely<Database>,
  now: Date,
  reAlertMs = SELL_REALERT_MS,
): Promise<SellAlert[]> {
  const due: SellAlert[] = [];
  const before = new Date(now.getTime() - reAlertMs);
  for (const alert of await openSellAlerts(db)) {
    const claimed = await db
      .insertInto('ramp_sell_alerts')
      .values({ order_id: alert.id, kind: alert.kind, first_alerted_at: now, last_alerted_at: now })
      .onConflict((oc) =>
        oc
          .columns(['order_id', 'kind'])
          .doUpdateSet({ last_alerted_at: now, alerts: sql`ramp_sell_alerts.alerts + 1` })
          .where('ramp_sell_alerts.resolved_at', 'is', null)
          .where('ramp_sell_alerts.kind', '<>', 'terms_mismatch')
          .where('ramp_sell_alerts.last_alerted_at', '<=', before),
      )
      .returning('order_id')
      .executeTakeFirst();
    if (claimed) due.push(alert);
  }
  return due;
}

/** An operator's resolution closes the order's open alerts (no re-alert). */
export async function resolveSellAlerts(db: Kysely<Database>, orderId: string, resolution: string, now: Date) {
  await db
    .updateTable('ramp_sell_alerts')
    .set({ resolved_at: now, resolution })
    .where('order_id', '=', orderId)
    .where('resolved_at', 'is', null)
    .execute();
}
