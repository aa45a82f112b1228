import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError, NotFoundError, ValidationError } from '../../errors/app-error.ts';
import { findAccountById } from '../auth/accounts-repository.ts';
import { enqueueUserMail } from '../mail/anti-phishing.ts';
import { mailLanguageOfUser, supportMail } from '../mail/support-templates.ts';
import { attachUploads, findUploads } from '../uploads/repository.ts';
import type { Audience, UploadsService } from '../uploads/service.ts';
import {
  allMessagesAfter,
  type ChatMessageRow,
  type ConversationRow,
  countRecentUserMessages,
  ensureConversation,
  findByClientId,
  findConversation,
  insertChatMessage,
  latestMessageId,
  listConversations,
  lockConversation,
  markRead,
  messagesAfter as messagesAfterIn,
  messagesBefore,
  notifyChat,
  setEmailedAt,
  setUserOnlineUntil,
} from './repository.ts';
import {
  CHAT_PAGE_MAX,
  type ChatHistory,
  type ChatMessage,
  type OpsConversation,
  type SendChatBody,
  USER_MESSAGES_PER_MINUTE,
} from './schemas.ts';

type Db = Kysely<Database>;
export type Sender = { userId: string } | { operatorId: string; conversationId: string };

/** An operator's replies to a user who is not connected are e-mailed, at most once in this window. */
const EMAIL_COALESCE_MS = 5 * 60_000;
const CONVERSATIONS_MAX = 200;
/** Messages a stream sends in one catch-up step. */
const CATCH_UP_PAGE = 200;

export interface ChatService {
  conversationOf(userId: string): Promise<ConversationRow>;
  conversation(id: string): Promise<ConversationRow>;
  history(
    conversation: ConversationRow,
    query: { before?: string; limit?: number },
    audience: Audience,
  ): Promise<ChatHistory>;
  send(by: Sender, input: SendChatBody): Promise<{ message: ChatMessage; created: boolean }>;
  typing(conversationId: string, who: 'user' | 'operator'): Promise<void>;
  read(conversationId: string, who: 'user' | 'operator', upTo: string): Promise<void>;
  conversations(): Promise<OpsConversation[]>;
  /** Where a stream starts without a resume id: the newest message of the conversation (null: of all). */
  latestId(conversationId: string | null): Promise<string>;
  /** The stream's catch-up: messages after `afterId` of one conversation (null: of all, for operators). */
  messagesAfter(conversationId: string | null, afterId: string): Promise<ChatMessage[]>;
  /** The user is connected until `until` (renewed by the stream), or not any more (null). */
  setPresence(conversationId: string, until: Date | null): Promise<void>;
}

export function createChatService(deps: {
  db: Db;
  now: () => Date;
  uploads: UploadsService;
  onMailQueued?: () => void;
}): ChatService {
  const { db, now } = deps;

  const views = async (rows: readonly ChatMessageRow[], audience: Audience): Promise<ChatMessage[]> => {
    const files = await findUploads(
      db,
      rows.flatMap((r) => (r.upload_id ? [r.upload_id] : [])),
    );
    const byId = new Map(files.map((f) => [f.id, deps.uploads.view(f, audience)]));
    return rows.map((r) => ({
      id: String(r.id),
      conversationId: r.conversation_id,
      author: r.author,
      clientId: r.client_id,
      text: r.text,
      attachment: (r.upload_id && byId.get(r.upload_id)) || null,
      createdAt: r.created_at.toISOString(),
    }));
  };

  /** A reply to a user who is not connected goes out by e-mail too (Chatwoot's "e-mail continuity"). */
  async function emailIfOffline(trx: Db, conversation: ConversationRow, text: string, at: Date): Promise<boolean> {
    const online = conversation.user_online_until !== null && conversation.user_online_until > at;
    const recentlyEmailed =
      conversation.emailed_at !== null && at.getTime() - conversation.emailed_at.getTime() < EMAIL_COALESCE_MS;
    if (online || recentlyEmailed) return false;
    const account = await findAccountById(trx, conversation.user_id);
    if (!account) return false;
    const language = await mailLanguageOfUser(trx, conversation.user_id);
    await enqueueUserMail(
      trx,
      conversation.user_id,
      language,
      { to: account.email, ...supportMail(language, 'chat_reply', { text }) },
      at,
    );
    await setEmailedAt(trx, conversation.id, at);
    return true;
  }

  const service: ChatService = {
    conversationOf: (userId) => ensureConversation(db, userId, now()),

    async conversation(id) {
      const row = await findConversation(db, id);
      if (!row) throw new NotFoundError('No such conversation');
      return row;
    },

    async history(conversation, query, audience) {
      const limit = Math.min(query.limit ?? 30, CHAT_PAGE_MAX);
      const rows = await messagesBefore(db, conversation.id, query.before ?? null, limit + 1);
      const page = rows.length > limit ? rows.slice(1) : rows;
      return {
        conversationId: conversation.id,
        items: await views(page, audience),
        hasMore: rows.length > limit,
        userReadId: String(conversation.user_read_id),
        operatorReadId: String(conversation.operator_read_id),
      };
    },

    async send(by, input) {
      const text = input.text.trim();
      if (text === '' && !input.uploadId)
        throw new ValidationError('Empty message', [{ field: 'text', message: 'is required', rule: 'required' }]);
      const conversationId = 'userId' in by ? (await service.conversationOf(by.userId)).id : by.conversationId;
      let emailed = false;
      const result = await db.transaction().execute(async (trx) => {
        const conversation = await lockConversation(trx, conversationId);
        if (!conversation) throw new NotFoundError('No such conversation');
        const existing = await findByClientId(trx, conversationId, input.clientId);
        if (existing) return { row: existing, created: false };
        const at = now();
        if (
          'userId' in by &&
          (await countRecentUserMessages(trx, conversationId, new Date(at.getTime() - 60_000))) >=
            USER_MESSAGES_PER_MINUTE
        )
          throw new AppError('RATE_LIMITED', 'Too many messages', {
            details: { limit: USER_MESSAGES_PER_MINUTE, retryAfterSeconds: 60 },
          });
        const row = await insertChatMessage(trx, {
          conversation_id: conversationId,
          author: 'userId' in by ? 'user' : 'operator',
          operator_id: 'operatorId' in by ? by.operatorId : null,
          client_id: input.clientId,
          text,
          upload_id: input.uploadId ?? null,
          created_at: at,
        });
        if (input.uploadId) {
          const attached = await attachUploads(
            trx,
            [input.uploadId],
            'userId' in by ? { userId: by.userId } : { operatorId: by.operatorId },
            {
              place: 'chat',
              attachedTo: `chat-message:${row.id}`,
              threadUserId: conversation.user_id,
            },
          );
          if (attached !== 1)
            throw new ValidationError('Unknown file', [
              { field: 'uploadId', message: 'not your unused chat file', rule: 'ownership' },
            ]);
        }
        if ('operatorId' in by) emailed = await emailIfOffline(trx, conversation, text, at);
        await notifyChat(trx, { k: 'm', c: conversationId, id: String(row.id) });
        return { row, created: true };
      });
      if (emailed) deps.onMailQueued?.();
      const [message] = await views([result.row], 'userId' in by ? 'user' : 'ops');
      return { message: message as ChatMessage, created: result.created };
    },

    async typing(conversationId, who) {
      await notifyChat(db, { k: 't', c: conversationId, who });
    },

    async read(conversationId, who, upTo) {
      await db.transaction().execute(async (trx) => {
        await markRead(trx, conversationId, who, upTo);
        await notifyChat(trx, { k: 'r', c: conversationId, who, upTo });
      });
    },

    async conversations() {
      const at = now();
      return (await listConversations(db, CONVERSATIONS_MAX)).map((c) => ({
        id: c.id,
        username: c.username,
        email: c.email,
        lastMessageAt: c.last_message_at?.toISOString() ?? null,
        online: c.user_online_until !== null && c.user_online_until > at,
        unread: Number(c.unread ?? 0),
      }));
    },
    latestId: (conversationId) => latestMessageId(db, conversationId),
    async messagesAfter(conversationId, afterId) {
      return conversationId === null
        ? views(await allMessagesAfter(db, afterId, CATCH_UP_PAGE), 'ops')
        : views(await messagesAfterIn(db, conversationId, afterId, CATCH_UP_PAGE), 'user');
    },
    setPresence: (conversationId, until) => setUserOnlineUntil(db, conversationId, until),
  };
  return service;
}
