import type { Kysely } from 'kysely';
import type { Database, MailAttachment } from '../../db/schema.ts';

export type { MailAttachment };

type Db = Kysely<Database>;

export interface OutgoingMail {
  /** One address, or several joined by ", " (each validated by the caller). */
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Where replies go (a user's mail: the user); unset: the From address. */
  replyTo?: string;
  /** Files from the upload store, read when the mail is sent. */
  attachments?: MailAttachment[];
}

export interface OutboxMessage extends OutgoingMail {
  id: string;
  attempts: number;
  createdAt: Date;
}

/** Queues a message. Call with the transaction of the event that causes it, so a crash never loses it. */
export async function enqueueMail(db: Db, mail: OutgoingMail, now: Date): Promise<string> {
  const { id } = await db
    .insertInto('outbox')
    .values({
      to_address: mail.to,
      subject: mail.subject,
      text: mail.text,
      html: mail.html ?? null,
      reply_to: mail.replyTo ?? null,
      attachments: mail.attachments?.length ? JSON.stringify(mail.attachments) : null,
      created_at: now,
      next_attempt_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/** Locks up to `limit` due messages for this transaction; other workers skip them. */
export async function claimDueMail(trx: Db, now: Date, limit: number): Promise<OutboxMessage[]> {
  const rows = await trx
    .selectFrom('outbox')
    .select(['id', 'to_address', 'subject', 'text', 'html', 'reply_to', 'attachments', 'attempts', 'created_at'])
    .where('sent_at', 'is', null)
    .where('failed_at', 'is', null)
    .where('next_attempt_at', '<=', now)
    .orderBy('id')
    .limit(limit)
    .forUpdate()
    .skipLocked()
    .execute();
  return rows.map((r) => ({
    id: r.id,
    to: r.to_address,
    subject: r.subject,
    text: r.text,
    ...(r.html === null ? {} : { html: r.html }),
    ...(r.reply_to === null ? {} : { replyTo: r.reply_to }),
    ...(r.attachments === null ? {} : { attachments: r.attachments }),
    attempts: r.attempts,
    createdAt: r.created_at,
  }));
}

export async function markSent(trx: Db, id: string, via: string, now: Date): Promise<void> {
  await trx
    .updateTable('outbox')
    .set((eb) => ({ sent_at: now, delivered_via: via, attempts: eb('attempts', '+', 1), last_error: null }))
    .where('id', '=', id)
    .execute();
}

/** Records a failed attempt: retry at `retryAt`, or give up (`failed_at`) when null. */
export async function markAttemptFailed(
  trx: Db,
  id: string,
  error: string,
  retryAt: Date | null,
  now: Date,
): Promise<void> {
  await trx
    .updateTable('outbox')
    .set((eb) => ({
      attempts: eb('attempts', '+', 1),
      last_error: error.slice(0, 1000),
      ...(retryAt === null ? { failed_at: now } : { next_attempt_at: retryAt }),
    }))
    .where('id', '=', id)
    .execute();
}

export interface MailboxMessage {
  id: string;
  to: string;
  subject: string;
  text: string;
  createdAt: string;
}

/** Messages delivered to the dev mailbox, newest first. */
export async function listDevMailbox(db: Db, limit = 200): Promise<MailboxMessage[]> {
  const rows = await db
    .selectFrom('outbox')
    .select(['id', 'to_address', 'subject', 'text', 'created_at'])
    .where('delivered_via', '=', 'dev-mailbox')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    to: r.to_address,
    subject: r.subject,
    text: r.text,
    createdAt: r.created_at.toISOString(),
  }));
}
