import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { NetworkCode } from '../catalogue/catalogue.ts';
import { assert } from '../ledger/model.ts';

/**
 * Reorgs deeper than the confirmation count (migration 0036). The credit of such a deposit stays in
 * the ledger — only an operator can tell whether the same coins arrive again or must be taken back —
 * but its user's withdrawals stop until then: new ones are refused (WITHDRAW_FROZEN) and approved ones
 * wait unsigned. The alert is raised in the watcher's reorg transaction, so it is never lost.
 */
type Db = Kysely<Database> | Transaction<Database>;

/** Raises one alert for the network's credited deposits above `forkBlock` not alerted before; returns how many. */
export async function raiseDeepReorgAlert(
  trx: Db,
  network: NetworkCode,
  forkBlock: bigint,
  now: Date,
): Promise<number> {
  const above = await trx
    .selectFrom('deposits')
    .select(['id', 'user_id'])
    .where('network', '=', network)
    .where('state', '=', 'successful')
    .where('block_number', '>', forkBlock.toString())
    .where('reorg_alert_id', 'is', null)
    .forUpdate()
    .execute();
  if (above.length === 0) return 0;
  const alert = await trx
    .insertInto('reorg_alerts')
    .values({ network, fork_block: forkBlock.toString(), deposits: above.length, created_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  await trx
    .updateTable('deposits')
    .set({ reorg_alert_id: alert.id })
    .where(
      'id',
      'in',
      above.map((d) => d.id),
    )
    .execute();
  const users = [...new Set(above.map((d) => d.user_id))];
  await trx
    .insertInto('withdrawal_freezes')
    .values(users.map((user_id) => ({ user_id, alert_id: alert.id, created_at: now })))
    .execute();
  return above.length;
}

/** Users whose withdrawals an open alert holds (a subquery of one column, `user_id`). */
export function frozenUsers(db: Db) {
  return db
    .selectFrom('withdrawal_freezes as f')
    .innerJoin('reorg_alerts as a', 'a.id', 'f.alert_id')
    .select('f.user_id')
    .where('a.resolved_at', 'is', null);
}

/** Whether the user's withdrawals are held by an open alert. */
export async function withdrawalsFrozen(db: Db, userId: string): Promise<boolean> {
  return (await frozenUsers(db).where('f.user_id', '=', userId).executeTakeFirst()) !== undefined;
}

export interface OpenAlert {
  id: string;
  network: string;
  forkBlock: string;
  deposits: number;
  users: number;
  createdAt: Date;
}

export async function listOpenAlerts(db: Db, limit = 200): Promise<OpenAlert[]> {
  const rows = await db
    .selectFrom('reorg_alerts as a')
    .leftJoin('withdrawal_freezes as f', 'f.alert_id', 'a.id')
    .select((eb) => [
      'a.id',
      'a.network',
      'a.fork_block',
      'a.deposits',
      'a.created_at',
      eb.fn.count<string>('f.user_id').as('users'),
    ])
    .where('a.resolved_at', 'is', null)
    .groupBy('a.id')
    .orderBy('a.created_at')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    network: r.network,
    forkBlock: r.fork_block,
    deposits: r.deposits,
    users: Number(r.users),
    createdAt: r.created_at,
  }));
}

/** Closes an open alert with the operator's note; its freezes no longer hold. False when not open. */
export async function resolveAlert(db: Db, id: string, resolution: string, now: Date): Promise<boolean> {
  const note = resolution.trim();
  assert(note.length >= 1 && note.length <= 500, 'a resolution of 1..500 characters');
  const done = await db
    .updateTable('reorg_alerts')
    .set({ resolved_at: now, resolution: note })
    .where('id', '=', id)
    .where('resolved_at', 'is', null)
    .executeTakeFirst();
  return Number(done.numUpdatedRows) === 1;
}
