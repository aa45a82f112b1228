import { type Kysely, type Selectable, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { ChatConversationsTable, ChatMessagesTable } from '../../db/schema-support.ts';

type Db = Kysely<Database>;
export type ConversationRow = Selectable<ChatConversationsTable>;
export type ChatMessageRow = Selectable<ChatMessagesTable>;

/** The notification channel of chat events (messages, typing, read marks), for every API instance. */
export const CHAT_CHANNEL = 'chat_events';

/** The user's conversation, made on first use. */
export async function ensureConversation(db: Db, userId: string, at: Date): Promise<ConversationRow> {
  const found = await db.selectFrom('chat_conversations').selectAll().where('user_id', '=', userId).executeTakeFirst();
  if (found) return found;
  await db
    .insertInto('chat_conversations')
    .values({ user_id: userId, created_at: at })
    .onConflict((oc) => oc.column('user_id').doNothing())
    .execute();
  return db.selectFrom('chat_conversations').selectAll().where('user_id', '=', userId).executeTakeFirstOrThrow();
}

export async function findConversation(db: Db, id: string): Promise<ConversationRow | undefined> {
  return db.selectFrom('chat_conversations').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Locks the conversation for a new message: ids of one conversation then commit in order. */
export async function lockConversation(db: Db, id: string): Promise<ConversationRow | undefined> {
  return db.selectFrom('chat_conversations').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

export async function findByClientId(db: Db, conversationId: string, clientId: string) {
  return db
    .selectFrom('chat_messages')
    .selectAll()
    .where('conversation_id', '=', conversationId)
    .where('client_id', '=', clientId)
    .executeTakeFirst();
}

export async function insertChatMessage(db: Db, row: Omit<ChatMessageRow, 'id'>): Promise<ChatMessageRow> {
  const message = await db.insertInto('chat_messages').values(row).returningAll().executeTakeFirstOrThrow();
  await db
    .updateTable('chat_conversations')
    .set({ last_message_at: row.created_at })
    .where('id', '=', row.conversation_id)
    .execute();
  return message;
}

/** Tells every API instance (LISTEN chat_events) about an event; sent when the transaction commits. */
export async function notifyChat(db: Db, event: Record<string, string>): Promise<void> {
  await sql`select pg_notify(${CHAT_CHANNEL}, ${JSON.stringify(event)})`.execute(db);
}

/** Messages of a conversation after `afterId`, oldest first (the stream's catch-up). */
export async function messagesAfter(db: Db, conversationId: string, afterId: string, limit: number) {
  return db
    .selectFrom('chat_messages')
    .selectAll()
    .where('conversation_id', '=', conversationId)
    .where('id', '>', afterId)
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** Messages of every conversation after `afterId` (the operators' stream catch-up). */
export async function allMessagesAfter(db: Db, afterId: string, limit: number) {
  return db.selectFrom('chat_messages').selectAll().where('id', '>', afterId).orderBy('id').limit(limit).execute();
}

export async function findChatMessage(db: Db, id: string) {
  return db.selectFrom('chat_messages').selectAll().where('id', '=', id).executeTakeFirst();
}

/** One page of history before `beforeId` (newest page first), returned oldest first. */
export async function messagesBefore(db: Db, conversationId: string, beforeId: string | null, limit: number) {
  let q = db.selectFrom('chat_messages').selectAll().where('conversation_id', '=', conversationId);
  if (beforeId !== null) q = q.where('id', '<', beforeId);
  const rows = await q.orderBy('id', 'desc').limit(limit).execute();
  return rows.reverse();
}

export async function latestMessageId(db: Db, conversationId: string | null): Promise<string> {
  let q = db.selectFrom('chat_messages').select((eb) => eb.fn.max('id').as('id'));
  if (conversationId !== null) q = q.where('conversation_id', '=', conversationId);
  const row = await q.executeTakeFirst();
  return row?.id === null || row?.id === undefined ? '0' : String(row.id);
}

/** Moves a read mark forward only (a late request never moves it back). */
export async function markRead(db: Db, conversationId: string, who: 'user' | 'operator', upTo: string) {
  const column = who === 'user' ? 'user_read_id' : 'operator_read_id';
  await db
    .updateTable('chat_conversations')
    .set({ [column]: sql`greatest(${sql.ref(column)}, ${upTo}::bigint)` })
    .where('id', '=', conversationId)
    .execute();
}

export async function setUserOnlineUntil(db: Db, conversationId: string, until: Date | null) {
  await db
    .updateTable('chat_conversations')
    .set({ user_online_until: until })
    .where('id', '=', conversationId)
    .execute();
}

export async function countRecentUserMessages(db: Db, conversationId: string, since: Date): Promise<number> {
  const row = await db
    .selectFrom('chat_messages')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('conversation_id', '=', conversationId)
    .where('author', '=', 'user')
    .where('created_at', '>', since)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Conversations by latest activity, with the user's e-mail and how many user messages support has not read. */
export async function listConversations(db: Db, limit: number) {
  return db
    .selectFrom('chat_conversations as c')
    .innerJoin('accounts as a', 'a.user_id', 'c.user_id')
    .select([
      'c.id',
      'c.user_id',
      'c.last_message_at',
      'c.user_online_until',
      'c.user_read_id',
      'c.operator_read_id',
      'a.email',
      'a.username',
    ])
    .select((eb) =>
      eb
        .selectFrom('chat_messages as m')
        .select((e) => e.fn.countAll<string>().as('n'))
        .whereRef('m.conversation_id', '=', 'c.id')
        .where('m.author', '=', 'user')
        .whereRef('m.id', '>', 'c.operator_read_id')
        .as('unread'),
    )
    .where('c.last_message_at', 'is not', null)
    .orderBy('c.last_message_at', 'desc')
    .limit(limit)
    .execute();
}

export async function setEmailedAt(db: Db, conversationId: string, at: Date) {
  await db.updateTable('chat_conversations').set({ emailed_at: at }).where('id', '=', conversationId).execute();
}
