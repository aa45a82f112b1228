import { type Static, Type } from 'typebox';
import { StringEnum } from '../../schema/string-enum.ts';

export const RECIPIENTS_MAX = 5;
export const SUBJECT_MAX = 200;
export const BODY_MAX = 10_000;
/** Mails a user may send in 24 hours (MAIL_DAILY_LIMIT). */
export const DAILY_LIMIT_DEFAULT = 20;
export const MAIL_PAGE_MAX = 50;

export const mailStates = ['queued', 'sent', 'failed'] as const;
export type MailState = (typeof mailStates)[number];

export const SendMailBody = Type.Object(
  {
    recipients: Type.Array(Type.String({ minLength: 3, maxLength: 254 }), { minItems: 1, maxItems: RECIPIENTS_MAX }),
    subject: Type.String({ minLength: 1, maxLength: SUBJECT_MAX, description: 'One line: CR and LF are refused' }),
    body: Type.String({ minLength: 1, maxLength: BODY_MAX, description: 'Plain text' }),
  },
  { additionalProperties: false },
);
export type SendMailBody = Static<typeof SendMailBody>;

export const UserMail = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    recipients: Type.Array(Type.String()),
    subject: Type.String(),
    body: Type.String(),
    state: StringEnum(mailStates),
    /** Why it failed (the SMTP server's answer), when it did. */
    failureReason: Type.Union([Type.String(), Type.Null()]),
    createdAt: Type.String({ format: 'date-time' }),
    sentAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    failedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    resentFrom: Type.Union([Type.String({ format: 'uuid' }), Type.Null()]),
  },
  { additionalProperties: false },
);
export type UserMail = Static<typeof UserMail>;

export const UserMailPage = Type.Object(
  { items: Type.Array(UserMail), nextCursor: Type.Union([Type.String(), Type.Null()]) },
  { additionalProperties: false },
);

export const MailListQuery = Type.Object(
  {
    cursor: Type.Optional(Type.String({ maxLength: 200, pattern: '^[A-Za-z0-9_-]+$' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAIL_PAGE_MAX })),
  },
  { additionalProperties: false },
);
