import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { SupportMessagesTable } from '../../db/schema-notices.ts';

type Db = Kysely<Database>;
export type SupportMessageRow = Selectable<SupportMessagesTable>;

const LIST_MAX = 200;

export async function insertSupportMessage(
  db: Db,
  row: {
    userId: string | null;
    phoneCountry: string | null;
    phoneE164: string | null;
    email: string | null;
    content: string;
    ip: string;
    language: string | null;
  },
  at: Date,
): Promise<SupportMessageRow> {
  return db
    .insertInto('support_messages')
    .values({
      user_id: row.userId,
      phone_country: row.phoneCountry,
      phone_e164: row.phoneE164,
      email: row.email,
      content: row.content,
      ip: row.ip,
      language: row.language,
      created_at: at,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Messages from `ip` since `since`, and the oldest of them (when the hour frees a place). */
export async function countFromIpSince(db: Db, ip: string, since: Date): Promise<{ n: number; oldest: Date | null }> {
  const row = await db
    .selectFrom('support_messages')
    .select((eb) => [eb.fn.countAll<string>().as('n'), eb.fn.min('created_at').as('oldest')])
    .where('ip', '=', ip)
    .where('created_at', '>', since)
    .executeTakeFirstOrThrow();
  return { n: Number(row.n), oldest: row.oldest ? new Date(row.oldest as Date) : null };
}

/** The operators' queue: open ones oldest first (answer in order), answered ones newest first. */
export async function listSupportMessages(db: Db, state: 'open' | 'answered'): Promise<SupportMessageRow[]> {
  const q = db.selectFrom('support_messages').selectAll();
  return state === 'open'
    ? q.where('answered_at', 'is', null).orderBy('created_at', 'asc').limit(LIST_MAX).execute()
    : q.where('answered_at', 'is not', null).orderBy('answered_at', 'desc').limit(LIST_MAX).execute();
}

/** Records the answer once; undefined when there is no such open message. */
export async function answerSupportMessage(
  db: Db,
  id: string,
  answer: { text: string; operatorId: string },
  at: Date,
): Promise<SupportMessageRow | undefined> {
  return db
    .updateTable('support_messages')
    .set({ answer: answer.text, answered_at: at, answered_by: answer.operatorId })
    .where('id', '=', id)
    .where('answered_at', 'is', null)
    .returningAll()
    .executeTakeFirst();
}
