import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { Database } from '../../db/schema.ts';

export const AUDIT_PAGE_MAX = 100;

export interface AuditSearch {
  /** An operator's name: events they did (details.by), or their own sign-ins (details.operator). */
  actor?: string | undefined;
  /** A user id, an operator id, or an operator name the event concerns. */
  target?: string | undefined;
  event?: string | undefined;
  from?: Date | undefined;
  to?: Date | undefined;
  /** Keyset paging: events with a smaller id. */
  beforeId?: string | undefined;
  limit: number;
}

export interface AuditSearchRow {
  id: string;
  chainSeq: string;
  occurredAt: Date;
  event: string;
  userId: string | null;
  ip: string | null;
  details: Record<string, unknown>;
  hash: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Newest first, at most AUDIT_PAGE_MAX. */
export async function searchAudit(db: Kysely<Database>, search: AuditSearch): Promise<AuditSearchRow[]> {
  let query = db
    .selectFrom('audit_events')
    .select(['id', 'chain_seq', 'occurred_at', 'event', 'user_id', 'ip', 'details', 'hash'])
    .orderBy('id', 'desc')
    .limit(Math.min(Math.max(search.limit, 1), AUDIT_PAGE_MAX));
  const { actor, target } = search;
  if (actor !== undefined)
    query = query.where((eb) =>
      eb.or([
        eb(sql`details->>'by'`, '=', actor),
        eb.and([eb(sql`details->>'by'`, 'is', null), eb(sql`details->>'operator'`, '=', actor)]),
      ]),
    );
  if (target !== undefined)
    query = UUID.test(target)
      ? query.where((eb) => eb.or([eb('user_id', '=', target), eb(sql`details->>'operatorId'`, '=', target)]))
      : query.where(sql`details->>'operator'`, '=', target);
  if (search.event !== undefined) query = query.where('event', '=', search.event);
  if (search.from !== undefined) query = query.where('occurred_at', '>=', search.from);
  if (search.to !== undefined) query = query.where('occurred_at', '<', search.to);
  if (search.beforeId !== undefined) query = query.where('id', '<', search.beforeId);
  const rows = await query.execute();
  return rows.map((r) => ({
    id: r.id,
    chainSeq: r.chain_seq ?? '',
    occurredAt: r.occurred_at,
    event: r.event,
    userId: r.user_id,
    ip: r.ip,
    details: r.details,
    hash: r.hash?.toString('hex') ?? '',
  }));
}
