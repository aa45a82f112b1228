import { type Static, Type } from 'typebox';
import { Upload } from '../uploads/schemas.ts';

/** Pictures on a left message (the specification: up to 5). */
export const PICTURES_MAX = 5;

export const CONTENT_MAX = 2000;
export const ANSWER_MAX = 5000;
/** Messages one IP may leave in an hour (visitors can write too). */
export const PER_IP_HOURLY = 5;

export const LeaveMessageBody = Type.Object(
  {
    /** ISO 3166-1 alpha-2 of the phone number's country (the area-code picker); required with a phone. */
    phoneCountry: Type.Optional(Type.String({ pattern: '^[A-Z]{2}$' })),
    phone: Type.Optional(Type.String({ maxLength: 32 })),
    email: Type.Optional(Type.String({ maxLength: 254 })),
    content: Type.String({ minLength: 1, maxLength: CONTENT_MAX }),
    language: Type.Optional(
      Type.Union([Type.Literal('zh-CN'), Type.Literal('zh-TW'), Type.Literal('en'), Type.Literal('es')], {
        description: "The page's language: the answer is e-mailed in it",
      }),
    ),
    uploadIds: Type.Optional(
      Type.Array(Type.String({ pattern: '^[A-Za-z0-9_-]{22}$' }), {
        maxItems: PICTURES_MAX,
        uniqueItems: true,
        description: 'Ids from POST /api/support/uploads',
      }),
    ),
  },
  { additionalProperties: false },
);
export type LeaveMessageBody = Static<typeof LeaveMessageBody>;

export const LeftMessage = Type.Object(
  { id: Type.String({ format: 'uuid' }), createdAt: Type.String({ format: 'date-time' }) },
  { additionalProperties: false },
);

export const OpsSupportMessage = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    phone: Type.Union([Type.String(), Type.Null()], { description: 'E.164' }),
    phoneCountry: Type.Union([Type.String(), Type.Null()]),
    email: Type.Union([Type.String(), Type.Null()]),
    content: Type.String(),
    signedIn: Type.Boolean(),
    createdAt: Type.String({ format: 'date-time' }),
    answer: Type.Union([Type.String(), Type.Null()]),
    answeredAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    attachments: Type.Array(Upload),
    answerAttachments: Type.Array(Upload),
  },
  { additionalProperties: false },
);
export type OpsSupportMessage = Static<typeof OpsSupportMessage>;

export const OpsMessagesQuery = Type.Object(
  { state: Type.Optional(Type.Union([Type.Literal('open'), Type.Literal('answered')])) },
  { additionalProperties: false },
);

export const AnswerBody = Type.Object(
  {
    answer: Type.String({ minLength: 1, maxLength: ANSWER_MAX }),
    uploadIds: Type.Optional(
      Type.Array(Type.String({ pattern: '^[A-Za-z0-9_-]{22}$' }), {
        maxItems: PICTURES_MAX,
        uniqueItems: true,
        description: 'Pictures from POST /api/ops/uploads?place=message: attached to the e-mail',
      }),
    ),
  },
  { additionalProperties: false },
);
