import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { ChainAlertKind } from '../../db/schema-reorgs.ts';
import { assert } from '../ledger/model.ts';

/**
 * Chain alerts (migration 0055): a node on another chain, a fork point that cannot be found, a
 * re-mined transfer that differs from the recorded one, native coin no recorded deposit explains.
 * Raised in the transaction of what found it; one open alert per (network, kind, dedupe key).
 */
type Db = Kysely<Database> | Transaction<Database>;

const MAX_DETAIL_CHARS = 2000;

export interface ChainAlertInput {
  network: string;
  kind: ChainAlertKind;
  /** What makes two findings the same alert (a transaction and position, a block, an address). */
  dedupeKey: string;
  detail: string;
}

/** Records the alert unless the same one is open; true when it is new. */
export async function raiseChainAlert(db: Db, alert: ChainAlertInput, now: Date): Promise<boolean> {
  assert(alert.dedupeKey.length >= 1 && alert.dedupeKey.length <= 200, 'a dedupe key of 1..200 characters');
  const inserted = await db
    .insertInto('chain_alerts')
    .values({
      network: alert.network,
      kind: alert.kind,
      dedupe_key: alert.dedupeKey,
      detail: alert.detail.slice(0, MAX_DETAIL_CHARS) || alert.kind,
      created_at: now,
    })
    .onConflict((oc) => oc.columns(['network', 'kind', 'dedupe_key']).where('resolved_at', 'is', null).doNothing())
    .executeTakeFirst();
  return Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 1;
}

export interface OpenChainAlert {
  id: string;
  network: string;
  kind: ChainAlertKind;
  detail: string;
  createdAt: Date;
}

export async function listOpenChainAlerts(db: Db, limit = 200): Promise<OpenChainAlert[]> {
  const rows = await db
    .selectFrom('chain_alerts')
    .select(['id', 'network', 'kind', 'detail', 'created_at'])
    .where('resolved_at', 'is', null)
    .orderBy('created_at')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ id: r.id, network: r.network, kind: r.kind, detail: r.detail, createdAt: r.created_at }));
}

/** Closes an open chain alert with the operator's note. False when not open. */
export async function resolveChainAlert(db: Db, id: string, resolution: string, now: Date): Promise<boolean> {
  const note = resolution.trim();
  assert(note.length >= 1 && note.length <= 500, 'a resolution of 1..500 characters');
  const done = await db
    .updateTable('chain_alerts')
    .set({ resolved_at: now, resolution: note })
    .where('id', '=', id)
    .where('resolved_at', 'is', null)
    .executeTakeFirst();
  return Number(done.numUpdatedRows) === 1;
}
