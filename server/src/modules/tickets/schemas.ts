import { type Static, Type } from 'typebox';
import { Upload } from '../uploads/schemas.ts';

export const DESCRIPTION_MAX = 2000;
export const REPLY_MAX = 5000;
/** Pictures on one message (the specification: up to 5). */
export const IMAGES_MAX = 5;
/** Tickets of one user waiting for a reply at once. */
export const OPEN_TICKETS_MAX = 10;
/** Messages in one ticket's thread. */
export const THREAD_MAX = 200;
export const TICKET_PAGE_MAX = 50;

const UploadIds = Type.Array(Type.String({ pattern: '^[A-Za-z0-9_-]{22}$' }), {
  maxItems: IMAGES_MAX,
  uniqueItems: true,
  description: 'Ids from POST /api/uploads?place=ticket',
});

export const NewTicketBody = Type.Object(
  {
    email: Type.String({ minLength: 3, maxLength: 254 }),
    description: Type.String({ minLength: 1, maxLength: DESCRIPTION_MAX }),
    txRef: Type.Optional(Type.String({ maxLength: 100, description: 'One of your order ids or transaction hashes' })),
    uploadIds: Type.Optional(UploadIds),
  },
  { additionalProperties: false },
);
export type NewTicketBody = Static<typeof NewTicketBody>;

export const FollowUpBody = Type.Object(
  { text: Type.String({ minLength: 1, maxLength: DESCRIPTION_MAX }), uploadIds: Type.Optional(UploadIds) },
  { additionalProperties: false },
);
export type FollowUpBody = Static<typeof FollowUpBody>;

export const OpsReplyBody = Type.Object(
  { text: Type.String({ minLength: 1, maxLength: REPLY_MAX }), uploadIds: Type.Optional(UploadIds) },
  { additionalProperties: false },
);

export const TicketState = Type.Union([Type.Literal('pending_reply'), Type.Literal('reply_received')]);

export const TicketMessage = Type.Object(
  {
    id: Type.String({ pattern: '^[0-9]+$' }),
    author: Type.Union([Type.Literal('user'), Type.Literal('operator')]),
    text: Type.String(),
    createdAt: Type.String({ format: 'date-time' }),
    attachments: Type.Array(Upload),
  },
  { additionalProperties: false },
);
export type TicketMessage = Static<typeof TicketMessage>;

export const TicketSummary = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    email: Type.String(),
    txRef: Type.Union([Type.String(), Type.Null()]),
    state: TicketState,
    /** The problem description (the first message). */
    description: Type.String(),
    createdAt: Type.String({ format: 'date-time' }),
    updatedAt: Type.String({ format: 'date-time' }),
  },
  { additionalProperties: false },
);
export type TicketSummary = Static<typeof TicketSummary>;

export const TicketDetail = Type.Object(
  { ...TicketSummary.properties, messages: Type.Array(TicketMessage) },
  { additionalProperties: false },
);
export type TicketDetail = Static<typeof TicketDetail>;

export const TicketPage = Type.Object(
  { items: Type.Array(TicketSummary), nextCursor: Type.Union([Type.String(), Type.Null()]) },
  { additionalProperties: false },
);

export const TicketListQuery = Type.Object(
  {
    cursor: Type.Optional(Type.String({ maxLength: 200, pattern: '^[A-Za-z0-9_-]+$' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: TICKET_PAGE_MAX })),
  },
  { additionalProperties: false },
);

export const OpsTicketQuery = Type.Object({ state: Type.Optional(TicketState) }, { additionalProperties: false });
