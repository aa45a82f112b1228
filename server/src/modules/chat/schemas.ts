import { type Static, Type } from 'typebox';
import { Upload } from '../uploads/schemas.ts';

export const CHAT_TEXT_MAX = 2000;
export const CHAT_PAGE_MAX = 50;
/** Messages a user may send in a minute. */
export const USER_MESSAGES_PER_MINUTE = 30;

const MessageId = Type.String({ pattern: '^[0-9]{1,19}$' });

export const ChatMessage = Type.Object(
  {
    id: MessageId,
    conversationId: Type.String({ format: 'uuid' }),
    author: Type.Union([Type.Literal('user'), Type.Literal('operator')]),
    /** The sender's id for the message: a retried send answers with the message already made. */
    clientId: Type.String({ format: 'uuid' }),
    text: Type.String(),
    attachment: Type.Union([Upload, Type.Null()]),
    createdAt: Type.String({ format: 'date-time' }),
  },
  { additionalProperties: false },
);
export type ChatMessage = Static<typeof ChatMessage>;

export const SendChatBody = Type.Object(
  {
    clientId: Type.String({ format: 'uuid' }),
    text: Type.String({ maxLength: CHAT_TEXT_MAX }),
    uploadId: Type.Optional(
      Type.String({ pattern: '^[A-Za-z0-9_-]{22}$', description: 'From POST /api/uploads?place=chat' }),
    ),
  },
  { additionalProperties: false },
);
export type SendChatBody = Static<typeof SendChatBody>;

export const ReadBody = Type.Object({ upTo: MessageId }, { additionalProperties: false });

export const HistoryQuery = Type.Object(
  {
    before: Type.Optional(MessageId),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: CHAT_PAGE_MAX })),
  },
  { additionalProperties: false },
);

export const ChatHistory = Type.Object(
  {
    conversationId: Type.String({ format: 'uuid' }),
    items: Type.Array(ChatMessage),
    hasMore: Type.Boolean(),
    /** The last message each side has read. */
    userReadId: MessageId,
    operatorReadId: MessageId,
  },
  { additionalProperties: false },
);
export type ChatHistory = Static<typeof ChatHistory>;

export const OpsConversation = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    username: Type.String(),
    email: Type.String(),
    lastMessageAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    online: Type.Boolean(),
    unread: Type.Integer(),
  },
  { additionalProperties: false },
);
export type OpsConversation = Static<typeof OpsConversation>;

export const StreamQuery = Type.Object(
  { after: Type.Optional(MessageId) },
  { additionalProperties: false, description: 'Resume after this message id (EventSource sends Last-Event-ID itself)' },
);

/** An event stream (text/event-stream): `message` events with ids, `typing` and `read` without. */
export const EventStream = Type.String({ description: 'text/event-stream' });
