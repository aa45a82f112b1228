import { type Kysely, sql } from 'kysely';
import { isValidPhoneNumber, parsePhoneNumberWithError } from 'libphonenumber-js/max';
import type { Database } from '../../db/schema.ts';
import { AppError, NotFoundError, ValidationError } from '../../errors/app-error.ts';
import { clientNetwork } from '../../lib/client-network.ts';
import { isValidEmail, normalizeEmail } from '../auth/rules.ts';
import { enqueueUserMail } from '../mail/anti-phishing.ts';
import { mailLanguageOfUser, supportMail } from '../mail/support-templates.ts';
import { isMailLanguage } from '../mail/templates.ts';
import { recordUserNotice } from '../notices/repository.ts';
import { attachedTo, attachUploads, type Uploader } from '../uploads/repository.ts';
import { mailAttachmentOf, type UploadsService } from '../uploads/service.ts';
import {
  answerSupportMessage,
  countFromIpSince,
  insertSupportMessage,
  listSupportMessages,
  type SupportMessageRow,
} from './repository.ts';
import { type LeaveMessageBody, type OpsSupportMessage, PER_IP_HOURLY } from './schemas.ts';

const HOUR_MS = 3_600_000;

/** The network's hourly allowance is spent: when its oldest message of the hour leaves the window. */
function rateLimited(oldest: Date | null, at: Date): AppError {
  const free = (oldest?.getTime() ?? at.getTime()) + HOUR_MS;
  return new AppError('SUPPORT_MESSAGE_RATE_LIMITED', `At most ${PER_IP_HOURLY} messages an hour`, {
    details: { limit: PER_IP_HOURLY, retryAfterSeconds: Math.max(1, Math.ceil((free - at.getTime()) / 1000)) },
  });
}

export interface SupportService {
  /** Leave-a-message, visitors too: a phone (with its country) or an e-mail is required; 5 an hour per IP. */
  leave(
    client: { ip: string; userId: string | null; uploader: Uploader | null },
    input: LeaveMessageBody,
  ): Promise<{ id: string; createdAt: string }>;
  queue(state: 'open' | 'answered'): Promise<OpsSupportMessage[]>;
  /** An operator's answer: e-mailed when the writer left an address, a system notice when signed in. */
  answer(id: string, text: string, operatorId: string, uploadIds?: readonly string[]): Promise<OpsSupportMessage>;
}

type Problem = { field: string; message: string; rule: string };

/** The contact the writer left: a phone valid for its country (E.164) and/or a valid e-mail. */
function contactOf(input: LeaveMessageBody): {
  phoneCountry: string | null;
  phoneE164: string | null;
  email: string | null;
} {
  const problems: Problem[] = [];
  const phone = input.phone?.trim() ?? '';
  const email = input.email?.trim() ? normalizeEmail(input.email) : '';
  let phoneE164: string | null = null;
  if (phone !== '') {
    if (!input.phoneCountry)
      problems.push({ field: 'phoneCountry', message: 'choose the area code', rule: 'required' });
    else if (!isValidPhoneNumber(phone, input.phoneCountry as never))
      problems.push({ field: 'phone', message: 'not a phone number of that country', rule: 'format' });
    else phoneE164 = parsePhoneNumberWithError(phone, input.phoneCountry as never).number;
  }
  if (email !== '' && !isValidEmail(email))
    problems.push({ field: 'email', message: 'not an e-mail address', rule: 'format' });
  if (phone === '' && email === '')
    problems.push({ field: 'contact', message: 'a phone or an e-mail is required', rule: 'required' });
  if (input.content.trim() === '') problems.push({ field: 'content', message: 'is required', rule: 'required' });
  if (problems.length > 0) throw new ValidationError('Invalid message', problems);
  return { phoneCountry: phoneE164 ? (input.phoneCountry ?? null) : null, phoneE164, email: email || null };
}

const target = (id: string) => `support-message:${id}`;
const answerTarget = (id: string) => `support-answer:${id}`;

function toOps(
  row: SupportMessageRow,
  attachments: OpsSupportMessage['attachments'],
  answerAttachments: OpsSupportMessage['answerAttachments'],
): OpsSupportMessage {
  return {
    attachments,
    answerAttachments,
    id: row.id,
    phone: row.phone_e164,
    phoneCountry: row.phone_country,
    email: row.email,
    content: row.content,
    signedIn: row.user_id !== null,
    createdAt: row.created_at.toISOString(),
    answer: row.answer,
    answeredAt: row.answered_at?.toISOString() ?? null,
  };
}

export function createSupportService(deps: {
  db: Kysely<Database>;
  now: () => Date;
  uploads: UploadsService;
  onMailQueued?: () => void;
}): SupportService {
  const { db, now } = deps;
  const withAttachments = async (rows: SupportMessageRow[]) => {
    const files = await attachedTo(
      db,
      rows.flatMap((r) => [target(r.id), answerTarget(r.id)]),
    );
    const of = (to: string) => files.filter((f) => f.attached_to === to).map((f) => deps.uploads.view(f, 'ops'));
    return rows.map((r) => toOps(r, of(target(r.id)), of(answerTarget(r.id))));
  };
  return {
    async leave(client, input) {
      const contact = contactOf(input);
      // Counted and stored by network (an IPv6 /64: lib/client-network.ts), under the network's lock
      // with the insert: a burst of concurrent messages cannot all pass one count.
      const network = clientNetwork(client.ip);
      // A network already over its allowance is refused without a transaction: a burst of refused
      // posts must not hold the pool's connections waiting on one lock.
      const hourAgo = () => new Date(now().getTime() - HOUR_MS);
      const before = await countFromIpSince(db, network, hourAgo());
      if (before.n >= PER_IP_HOURLY) throw rateLimited(before.oldest, now());
      const ids = input.uploadIds ?? [];
      const row = await db.transaction().execute(async (trx) => {
        // Bounded wait: a queue behind one network's lock answers 503 (retry) rather than piling up.
        await sql`set local lock_timeout = '2s'`.execute(trx);
        await sql`select pg_advisory_xact_lock(hashtext(${`support-ip:${network}`}))`.execute(trx);
        const at = now();
        const recent = await countFromIpSince(trx, network, new Date(at.getTime() - HOUR_MS));
        if (recent.n >= PER_IP_HOURLY) throw rateLimited(recent.oldest, at);
        const left = await insertSupportMessage(
          trx,
          {
            userId: client.userId,
            ...contact,
            content: input.content.trim(),
            ip: network,
            language: input.language ?? null,
          },
          at,
        );
        const attached =
          ids.length === 0 || !client.uploader
            ? 0
            : await attachUploads(trx, ids, client.uploader, {
                place: 'message',
                attachedTo: target(left.id),
                threadUserId: client.userId,
              });
        if (attached !== ids.length)
          throw new ValidationError('Unknown pictures', [
            { field: 'uploadIds', message: 'not your unused pictures', rule: 'ownership' },
          ]);
        return left;
      });
      return { id: row.id, createdAt: row.created_at.toISOString() };
    },

    async queue(state) {
      return withAttachments(await listSupportMessages(db, state));
    },

    async answer(id, text, operatorId, uploadIds = []) {
      const row = await db.transaction().execute(async (trx) => {
        const at = now();
        const answered = await answerSupportMessage(trx, id, { text: text.trim(), operatorId }, at);
        if (!answered) return undefined;
        const attached = await attachUploads(
          trx,
          uploadIds,
          { operatorId },
          {
            place: 'message',
            attachedTo: answerTarget(id),
            threadUserId: answered.user_id,
          },
        );
        if (attached !== uploadIds.length)
          throw new ValidationError('Unknown pictures', [
            { field: 'uploadIds', message: 'not your unused pictures', rule: 'ownership' },
          ]);
        const pictures = (await attachedTo(trx, [answerTarget(id)])).map(mailAttachmentOf);
        if (answered.email) {
          const language = isMailLanguage(answered.language)
            ? answered.language
            : await mailLanguageOfUser(trx, answered.user_id);
          const mail = supportMail(language, 'message_answer', { text, quoted: answered.content });
          await enqueueUserMail(
            trx,
            answered.user_id,
            language,
            { to: answered.email, ...mail, attachments: pictures },
            at,
          );
        }
        if (answered.user_id)
          await recordUserNotice(
            trx,
            {
              userId: answered.user_id,
              kind: 'support_reply',
              params: { messageId: id },
              dedupeKey: `support-message:${id}`,
            },
            at,
          );
        return answered;
      });
      if (!row) throw new NotFoundError('No open message with this id');
      deps.onMailQueued?.();
      return (await withAttachments([row]))[0] as OpsSupportMessage;
    },
  };
}
