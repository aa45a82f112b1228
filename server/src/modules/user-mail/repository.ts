import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';

type Db = Kysely<Database>;

/** A user mail joined with its outbox row (where its state lives). */
export interface UserMailRow {
  id: string;
  recipients: string[];
  subject: string;
  body: string;
  resent_from: string | null;
  created_at: Date;
  sent_at: Date | null;
  failed_at: Date | null;
  last_error: string | null;
}

function withState(db: Db) {
  return db
    .selectFrom('user_mails as m')
    .innerJoin('outbox as o', 'o.id', 'm.outbox_id')
    .select([
      'm.id',
      'm.recipients',
      'm.subject',
      'm.body',
      'm.resent_from',
      'm.created_at',
      'o.sent_at',
      'o.failed_at',
      'o.last_error',
    ]);
}

export async function insertUserMail(
  trx: Transaction<Database>,
  mail: {
    userId: string;
    recipients: string[];
    subject: string;
    body: string;
    outboxId: string;
    resentFrom: string | null;
    ip: string;
  },
  at: Date,
): Promise<string> {
  const { id } = await trx
    .insertInto('user_mails')
    .values({
      user_id: mail.userId,
      recipients: mail.recipients,
      subject: mail.subject,
      body: mail.body,
      outbox_id: mail.outboxId,
      resent_from: mail.resentFrom,
      ip: mail.ip,
      created_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

export async function findUserMail(db: Db, userId: string, id: string): Promise<UserMailRow | undefined> {
  return withState(db).where('m.user_id', '=', userId).where('m.id', '=', id).executeTakeFirst();
}

export async function listUserMails(
  db: Db,
  query: { userId: string; before?: { createdAt: Date; id: string }; limit: number },
): Promise<UserMailRow[]> {
  let q = withState(db).where('m.user_id', '=', query.userId);
  if (query.before) {
    const { createdAt, id } = query.before;
    q = q.where((eb) =>
      eb.or([eb('m.created_at', '<', createdAt), eb.and([eb('m.created_at', '=', createdAt), eb('m.id', '<', id)])]),
    );
  }
  return q.orderBy('m.created_at', 'desc').orderBy('m.id', 'desc').limit(query.limit).execute();
}

/** Mails the user (or the IP) sent since `since`, and the oldest of them (when the window frees a place). */
export async function countSentSince(
  db: Db,
  by: { userId: string } | { ip: string },
  since: Date,
): Promise<{ n: number; oldest: Date | null }> {
  const row = await db
    .selectFrom('user_mails')
    .select((eb) => [eb.fn.countAll<string>().as('n'), eb.fn.min('created_at').as('oldest')])
    .where((eb) => ('userId' in by ? eb('user_id', '=', by.userId) : eb('ip', '=', by.ip)))
    .where('created_at', '>', since)
    .executeTakeFirstOrThrow();
  return { n: Number(row.n), oldest: row.oldest ? new Date(row.oldest as Date) : null };
}
