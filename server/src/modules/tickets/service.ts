import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError, NotFoundError, ValidationError } from '../../errors/app-error.ts';
import { decodeTimeIdCursor, encodeTimeIdCursor } from '../../http/cursor.ts';
import { isValidEmail, normalizeEmail } from '../auth/rules.ts';
import { isOwnTransactionRef } from '../history/transaction-ref.ts';
import { enqueueUserMail } from '../mail/anti-phishing.ts';
import { mailLanguageOfUser, supportMail } from '../mail/support-templates.ts';
import { recordUserNotice } from '../notices/repository.ts';
import { attachedTo, attachUploads, type Uploader } from '../uploads/repository.ts';
import type { Audience, UploadsService } from '../uploads/service.ts';
import {
  countMessages,
  countOpenTickets,
  findTicket,
  insertTicket,
  insertTicketMessage,
  listTicketsByState,
  listUserTickets,
  lockTicket,
  setTicketState,
  type TicketWithDescription,
  ticketMessages,
} from './repository.ts';
import {
  type FollowUpBody,
  type NewTicketBody,
  OPEN_TICKETS_MAX,
  THREAD_MAX,
  TICKET_PAGE_MAX,
  type TicketDetail,
  type TicketSummary,
} from './schemas.ts';

type Db = Kysely<Database>;
type Page = { items: TicketSummary[]; nextCursor: string | null };

export interface TicketsService {
  open(userId: string, input: NewTicketBody): Promise<TicketDetail>;
  list(userId: string, query: { cursor?: string; limit?: number }): Promise<Page>;
  detail(userId: string, id: string): Promise<TicketDetail>;
  /** The user writes again: the ticket waits for a reply again. */
  followUp(userId: string, id: string, input: FollowUpBody): Promise<TicketDetail>;
  queue(state: 'pending_reply' | 'reply_received'): Promise<TicketSummary[]>;
  opsDetail(id: string): Promise<TicketDetail>;
  /** An operator answers: reply received, a system notice and an e-mail to the ticket's address. */
  reply(operatorId: string, id: string, input: FollowUpBody): Promise<TicketDetail>;
}

const messageTarget = (id: string) => `ticket-message:${id}`;

function summary(row: TicketWithDescription): TicketSummary {
  return {
    id: row.id,
    email: row.email,
    txRef: row.tx_ref,
    state: row.state,
    description: row.description,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

const badUploads = () =>
  new ValidationError('Unknown pictures', [
    { field: 'uploadIds', message: 'not your unused ticket pictures', rule: 'ownership' },
  ]);

export function createTicketsService(deps: {
  db: Db;
  now: () => Date;
  uploads: UploadsService;
  onMailQueued?: () => void;
}): TicketsService {
  const { db, now } = deps;

  async function detailOf(row: TicketWithDescription, audience: Audience): Promise<TicketDetail> {
    const messages = await ticketMessages(db, row.id);
    const files = await attachedTo(
      db,
      messages.map((m) => messageTarget(m.id)),
    );
    return {
      ...summary(row),
      messages: messages.map((m) => ({
        id: m.id,
        author: m.author,
        text: m.text,
        createdAt: m.created_at.toISOString(),
        attachments: files
          .filter((f) => f.attached_to === messageTarget(m.id))
          .map((f) => deps.uploads.view(f, audience)),
      })),
    };
  }

  /** One message with its pictures, in the caller's transaction; the ticket row is locked. */
  async function addMessage(
    trx: Db,
    ticket: { id: string; user_id: string },
    by: Uploader,
    input: FollowUpBody,
  ): Promise<string> {
    if ((await countMessages(trx, ticket.id)) >= THREAD_MAX)
      throw new ValidationError('Thread full', [
        { field: 'text', message: `at most ${THREAD_MAX} messages`, rule: 'limit' },
      ]);
    const at = now();
    const message = await insertTicketMessage(
      trx,
      { ticketId: ticket.id, operatorId: 'operatorId' in by ? by.operatorId : null, text: input.text.trim() },
      at,
    );
    const ids = input.uploadIds ?? [];
    const attached = await attachUploads(trx, ids, by, {
      place: 'ticket',
      attachedTo: messageTarget(message.id),
      threadUserId: ticket.user_id,
    });
    if (attached !== ids.length) throw badUploads();
    return message.id;
  }

  async function checkNew(userId: string, input: NewTicketBody): Promise<{ email: string; txRef: string | null }> {
    const problems = [];
    const email = normalizeEmail(input.email);
    if (!isValidEmail(email)) problems.push({ field: 'email', message: 'not an e-mail address', rule: 'format' });
    if (input.description.trim() === '')
      problems.push({ field: 'description', message: 'is required', rule: 'required' });
    const txRef = input.txRef?.trim() || null;
    if (txRef && !(await isOwnTransactionRef(db, userId, txRef)))
      problems.push({ field: 'txRef', message: 'not one of your orders or transactions', rule: 'ownership' });
    if (problems.length > 0) throw new ValidationError('Invalid ticket', problems);
    return { email, txRef };
  }

  const service: TicketsService = {
    async open(userId, input) {
      const checked = await checkNew(userId, input);
      const id = await db.transaction().execute(async (trx) => {
        // One open-ticket count per user at a time: concurrent submits cannot both pass the limit.
        await trx.selectFrom('users').select('id').where('id', '=', userId).forUpdate().executeTakeFirst();
        if ((await countOpenTickets(trx, userId)) >= OPEN_TICKETS_MAX)
          throw new AppError('TICKET_LIMIT', `At most ${OPEN_TICKETS_MAX} tickets may wait for a reply`, {
            details: { limit: OPEN_TICKETS_MAX },
          });
        const ticket = await insertTicket(trx, { userId, ...checked }, now());
        await addMessage(trx, ticket, { userId }, { text: input.description, uploadIds: input.uploadIds ?? [] });
        return ticket.id;
      });
      return service.detail(userId, id);
    },

    async list(userId, query) {
      const limit = Math.min(query.limit ?? 20, TICKET_PAGE_MAX);
      const before = query.cursor ? decodeTimeIdCursor(query.cursor) : undefined;
      const rows = await listUserTickets(db, userId, { ...(before ? { before } : {}), limit });
      const last = rows.at(-1);
      return {
        items: rows.map(summary),
        nextCursor:
          rows.length === limit && last ? encodeTimeIdCursor({ createdAt: last.created_at, id: last.id }) : null,
      };
    },

    async detail(userId, id) {
      const row = await findTicket(db, id);
      if (!row || row.user_id !== userId) throw new NotFoundError('No such ticket');
      return detailOf(row, 'user');
    },

    async followUp(userId, id, input) {
      await db.transaction().execute(async (trx) => {
        const ticket = await lockTicket(trx, id);
        if (!ticket || ticket.user_id !== userId) throw new NotFoundError('No such ticket');
        await addMessage(trx, ticket, { userId }, input);
        await setTicketState(trx, id, 'pending_reply', now());
      });
      return service.detail(userId, id);
    },

    async queue(state) {
      return (await listTicketsByState(db, state)).map(summary);
    },

    async opsDetail(id) {
      const row = await findTicket(db, id);
      if (!row) throw new NotFoundError('No such ticket');
      return detailOf(row, 'ops');
    },

    async reply(operatorId, id, input) {
      await db.transaction().execute(async (trx) => {
        const ticket = await lockTicket(trx, id);
        if (!ticket) throw new NotFoundError('No such ticket');
        const messageId = await addMessage(trx, ticket, { operatorId }, input);
        const at = now();
        await setTicketState(trx, id, 'reply_received', at);
        await recordUserNotice(
          trx,
          {
            userId: ticket.user_id,
            kind: 'support_reply',
            params: { ticketId: id },
            dedupeKey: messageTarget(messageId),
          },
          at,
        );
        const language = await mailLanguageOfUser(trx, ticket.user_id);
        await enqueueUserMail(
          trx,
          ticket.user_id,
          language,
          { to: ticket.email, ...supportMail(language, 'ticket_reply', { text: input.text }) },
          at,
        );
      });
      deps.onMailQueued?.();
      return service.opsDetail(id);
    },
  };
  return service;
}
