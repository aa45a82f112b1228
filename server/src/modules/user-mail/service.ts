import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError, NotFoundError, UnauthenticatedError, ValidationError } from '../../errors/app-error.ts';
import { decodeTimeIdCursor, encodeTimeIdCursor } from '../../http/cursor.ts';
import { clientNetwork } from '../../lib/client-network.ts';
import { findAccountById } from '../auth/accounts-repository.ts';
import { isValidEmail, normalizeEmail } from '../auth/rules.ts';
import { enqueueMail } from '../mail/outbox.ts';
import { countSentSince, findUserMail, insertUserMail, listUserMails, type UserMailRow } from './repository.ts';
import { DAILY_LIMIT_DEFAULT, type SendMailBody, type UserMail } from './schemas.ts';

const DAY_MS = 86_400_000;

/**
 * Mail a user writes leaves from our own address (it passes SPF and DKIM), so it must never pass for
 * ours — a code or a withdrawal mail (issue 38): every subject starts with this, the text with a block
 * naming the sending account, it is plain text only, and its links are written so that no mail client
 * makes them clickable.
 */
export const USER_MAIL_SUBJECT_PREFIX = '[Message from a CW Wallet user] ';

/** `https://evil.example` -> `hxxps[:]//evil[.]example`, `www.x.io` -> `www[.]x[.]io`: readable, not a link. */
export function defangLinks(text: string): string {
  return text
    .replace(
      /\b(h)(tt)(ps?):\/\/([^\s/?#]+)/gi,
      (_m, h: string, _tt: string, p: string, host: string) => `${h}xx${p}[:]//${host.replace(/\./g, '[.]')}`,
    )
    .replace(/\b(www)\.([^\s/?#]+)/gi, (_m, w: string, rest: string) => `${w}[.]${rest.replace(/\./g, '[.]')}`);
}

/** The text that goes out: who wrote it first, then the user's words with links defanged. */
export function userMailText(username: string, replyTo: string, body: string): string {
  return [
    `This message was written by the CW Wallet user "${username}" (replies go to ${defangLinks(replyTo)}).`,
    'It was not written by CW Wallet: we never ask for codes, passwords or payments by e-mail.',
    '----------------------------------------------------------------------',
    '',
    defangLinks(body),
  ].join('\n');
}
const PAGE_DEFAULT = 20;

export interface UserMailService {
  /** Queues the mail (From: the service, Reply-To: the user) and records it; 201 with the record. */
  send(userId: string, input: SendMailBody, ip: string): Promise<UserMail>;
  /** A failed mail, sent again as a new record. */
  resend(userId: string, id: string, ip: string): Promise<UserMail>;
  get(userId: string, id: string): Promise<UserMail>;
  list(
    userId: string,
    query: { cursor?: string; limit?: number },
  ): Promise<{ items: UserMail[]; nextCursor: string | null }>;
}

function toMail(row: UserMailRow): UserMail {
  const state = row.sent_at ? 'sent' : row.failed_at ? 'failed' : 'queued';
  return {
    id: row.id,
    recipients: row.recipients,
    subject: row.subject,
    body: row.body,
    state,
    failureReason: state === 'failed' ? (row.last_error ?? '') : null,
    createdAt: row.created_at.toISOString(),
    sentAt: row.sent_at?.toISOString() ?? null,
    failedAt: row.failed_at?.toISOString() ?? null,
    resentFrom: row.resent_from,
  };
}

/** Header fields are one line: a CR or LF would start a header of the sender's choosing. */
function checked(input: SendMailBody): SendMailBody {
  const details: Array<{ field: string; message: string; rule: string }> = [];
  const recipients = [...new Set(input.recipients.map((r) => normalizeEmail(r)))];
  recipients.forEach((address, i) => {
    if (/[\r\n]/.test(address) || !isValidEmail(address))
      details.push({ field: `recipients.${i}`, message: 'not an e-mail address', rule: 'format' });
  });
  const subject = input.subject.trim();
  if (/[\r\n]/.test(input.subject)) details.push({ field: 'subject', message: 'must be one line', rule: 'header' });
  else if (subject === '') details.push({ field: 'subject', message: 'is required', rule: 'required' });
  if (input.body.trim() === '') details.push({ field: 'body', message: 'is required', rule: 'required' });
  if (details.length > 0) throw new ValidationError('Invalid mail', details);
  return { recipients, subject, body: input.body };
}

/** SUPPORT_EMAIL's default (config-env.ts); deployments set their own. */
export const SUPPORT_EMAIL_DEFAULT = 'support@wallet.example';

/**
 * Mail leaves from our own address, so to a stranger it would be our phishing (issue 38 item 6): it
 * may go only to support and to the sender's own (verified at registration) address. Checked before
 * anything is queued, for a resend too (a record from before this rule is not sent again).
 */
function assertRecipientsAllowed(recipients: readonly string[], own: string, support: string): void {
  const allowed = new Set([normalizeEmail(own), normalizeEmail(support)]);
  const details = recipients.flatMap((r, i) =>
    allowed.has(normalizeEmail(r))
      ? []
      : [
          {
            field: `recipients.${i}`,
            message: `is neither support (${support}) nor your own address`,
            rule: 'allowed',
          },
        ],
  );
  if (details.length > 0)
    throw new AppError('MAIL_RECIPIENT_NOT_ALLOWED', 'Mail can go only to support or to your own address', { details });
}

export function createUserMailService(deps: {
  db: Kysely<Database>;
  now: () => Date;
  dailyLimit?: number;
  supportEmail?: string;
  onQueued?: () => void;
}): UserMailService {
  const { db, now } = deps;
  const dailyLimit = deps.dailyLimit ?? DAILY_LIMIT_DEFAULT;
  const supportEmail = deps.supportEmail ?? SUPPORT_EMAIL_DEFAULT;

  /** MAIL_DAILY_LIMIT when `count` already holds the limit; the wait is until its oldest mail leaves the window. */
  function assertUnderLimit(count: { n: number; oldest: Date | null }, at: Date): void {
    if (count.n < dailyLimit) return;
    const free = count.oldest ? count.oldest.getTime() + DAY_MS : at.getTime() + DAY_MS;
    throw new AppError('MAIL_DAILY_LIMIT', `At most ${dailyLimit} mails in 24 hours`, {
      details: { limit: dailyLimit, retryAfterSeconds: Math.max(1, Math.ceil((free - at.getTime()) / 1000)) },
    });
  }

  async function queue(
    userId: string,
    mail: SendMailBody,
    resentFrom: string | null,
    address: string,
  ): Promise<UserMail> {
    // Counted, locked and stored by network (an IPv6 /64), so one machine's addresses share a limit.
    const ip = clientNetwork(address);
    const account = await findAccountById(db, userId);
    if (!account) throw new UnauthenticatedError('User no longer exists');
    assertRecipientsAllowed(mail.recipients, account.email, supportEmail);
    const id = await db.transaction().execute(async (trx) => {
      // One user's sends in order, then one IP's, so both daily counts hold under concurrency (always
      // in this order: no two sends wait for each other's lock).
      await sql`select pg_advisory_xact_lock(hashtext(${`user-mail:${userId}`}))`.execute(trx);
      await sql`select pg_advisory_xact_lock(hashtext(${`user-mail-ip:${ip}`}))`.execute(trx);
      const at = now();
      const since = new Date(at.getTime() - DAY_MS);
      // Per account and per IP: fresh accounts on one machine do not multiply the limit.
      assertUnderLimit(await countSentSince(trx, { userId }, since), at);
      assertUnderLimit(await countSentSince(trx, { ip }, since), at);
      const outboxId = await enqueueMail(
        trx,
        {
          to: mail.recipients.join(', '),
          subject: USER_MAIL_SUBJECT_PREFIX + mail.subject,
          text: userMailText(account.username, account.email, mail.body),
          replyTo: account.email,
        },
        at,
      );
      return insertUserMail(trx, { userId, ...mail, outboxId, resentFrom, ip }, at);
    });
    deps.onQueued?.();
    return toMail((await findUserMail(db, userId, id)) as UserMailRow);
  }

  return {
    send: (userId, input, ip) => queue(userId, checked(input), null, ip),

    async resend(userId, id, ip) {
      const row = await findUserMail(db, userId, id);
      if (!row) throw new NotFoundError('No such mail');
      if (!row.failed_at) throw new AppError('CONFLICT', 'Only a failed mail can be sent again');
      return queue(userId, { recipients: row.recipients, subject: row.subject, body: row.body }, row.id, ip);
    },

    async get(userId, id) {
      const row = await findUserMail(db, userId, id);
      if (!row) throw new NotFoundError('No such mail');
      return toMail(row);
    },

    async list(userId, query) {
      const limit = query.limit ?? PAGE_DEFAULT;
      let before: { createdAt: Date; id: string } | undefined;
      if (query.cursor) {
        before = decodeTimeIdCursor(query.cursor);
      }
      const rows = await listUserMails(db, { userId, limit, ...(before ? { before } : {}) });
      const last = rows.at(-1);
      const nextCursor =
        rows.length === limit && last ? encodeTimeIdCursor({ createdAt: last.created_at, id: last.id }) : null;
      return { items: rows.map(toMail), nextCursor };
    },
  };
}
