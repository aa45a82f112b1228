import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { TicketMessagesTable, TicketState, TicketsTable } from '../../db/schema-support.ts';
import type { TimeIdKey } from '../../http/cursor.ts';

type Db = Kysely<Database>;
export type TicketRow = Selectable<TicketsTable>;
export type TicketMessageRow = Selectable<TicketMessagesTable>;
export type TicketWithDescription = TicketRow & { description: string };

const OPS_LIST_MAX = 200;

export async function insertTicket(
  db: Db,
  row: { userId: string; email: string; txRef: string | null },
  at: Date,
): Promise<TicketRow> {
  return db
    .insertInto('tickets')
    .values({
      user_id: row.userId,
      email: row.email,
      tx_ref: row.txRef,
      state: 'pending_reply',
      created_at: at,
      updated_at: at,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function insertTicketMessage(
  db: Db,
  row: { ticketId: string; operatorId: string | null; text: string },
  at: Date,
): Promise<TicketMessageRow> {
  return db
    .insertInto('ticket_messages')
    .values({
      ticket_id: row.ticketId,
      author: row.operatorId === null ? 'user' : 'operator',
      operator_id: row.operatorId,
      text: row.text,
      created_at: at,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Locks the ticket row for a new message (state and counts change together). */
export async function lockTicket(db: Db, id: string): Promise<TicketRow | undefined> {
  return db.selectFrom('tickets').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

export async function setTicketState(db: Db, id: string, state: TicketState, at: Date): Promise<void> {
  await db.updateTable('tickets').set({ state, updated_at: at }).where('id', '=', id).execute();
}

export async function countOpenTickets(db: Db, userId: string): Promise<number> {
  const row = await db
    .selectFrom('tickets')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('user_id', '=', userId)
    .where('state', '=', 'pending_reply')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function countMessages(db: Db, ticketId: string): Promise<number> {
  const row = await db
    .selectFrom('ticket_messages')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('ticket_id', '=', ticketId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

function withDescription(db: Db) {
  return db
    .selectFrom('tickets as t')
    .selectAll('t')
    .select((eb) =>
      eb
        .selectFrom('ticket_messages as m')
        .select('m.text')
        .whereRef('m.ticket_id', '=', 't.id')
        .orderBy('m.id')
        .limit(1)
        .as('description'),
    );
}

const described = (rows: (TicketRow & { description: string | null })[]): TicketWithDescription[] =>
  rows.map((r) => ({ ...r, description: r.description ?? '' }));

/** A user's tickets, newest first, after the keyset cursor. */
export async function listUserTickets(
  db: Db,
  userId: string,
  page: { before?: TimeIdKey; limit: number },
): Promise<TicketWithDescription[]> {
  let q = withDescription(db).where('t.user_id', '=', userId);
  if (page.before) {
    const { createdAt, id } = page.before;
    q = q.where((eb) =>
      eb.or([eb('t.created_at', '<', createdAt), eb.and([eb('t.created_at', '=', createdAt), eb('t.id', '<', id)])]),
    );
  }
  return described(await q.orderBy('t.created_at', 'desc').orderBy('t.id', 'desc').limit(page.limit).execute());
}

/** The operators' queue: waiting ones longest-waiting first, answered ones most recent first. */
export async function listTicketsByState(db: Db, state: TicketState): Promise<TicketWithDescription[]> {
  const q = withDescription(db).where('t.state', '=', state);
  const ordered = state === 'pending_reply' ? q.orderBy('t.updated_at', 'asc') : q.orderBy('t.updated_at', 'desc');
  return described(await ordered.limit(OPS_LIST_MAX).execute());
}

export async function findTicket(db: Db, id: string): Promise<TicketWithDescription | undefined> {
  const row = await withDescription(db).where('t.id', '=', id).executeTakeFirst();
  return row ? described([row])[0] : undefined;
}

export async function ticketMessages(db: Db, ticketId: string): Promise<TicketMessageRow[]> {
  return db.selectFrom('ticket_messages').selectAll().where('ticket_id', '=', ticketId).orderBy('id').execute();
}
