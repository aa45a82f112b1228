import { type Static, Type } from 'typebox';
import { StringEnum } from '../../schema/string-enum.ts';
import { languages } from '../settings/schemas.ts';

export const announcementCategories = ['news', 'maintenance', 'listing', 'activity'] as const;
export type AnnouncementCategory = (typeof announcementCategories)[number];

/** Events that write a system notice (the screen words each one in the reader's language). */
export const userNoticeKinds = [
  'deposit_credited',
  'withdrawal_completed',
  'withdrawal_rejected',
  'support_reply',
  'reward_delivered',
] as const;
export type UserNoticeKind = (typeof userNoticeKinds)[number];

export type NoticeLanguage = (typeof languages)[number];
/** The language every announcement has; another one missing falls back to it. */
export const FALLBACK_LANGUAGE: NoticeLanguage = 'zh-CN';

export const NOTICE_PAGE_MAX = 50;
export const TITLE_MAX = 200;
export const BODY_MAX = 20_000;

const LanguageSchema = StringEnum(languages);
const Cursor = Type.String({ maxLength: 200, pattern: '^[A-Za-z0-9_-]+$' });

export const NoticeListQuery = Type.Object(
  {
    lang: Type.Optional(LanguageSchema),
    cursor: Type.Optional(Cursor),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: NOTICE_PAGE_MAX })),
  },
  { additionalProperties: false },
);
export type NoticeListQuery = Static<typeof NoticeListQuery>;

export const LangQuery = Type.Object({ lang: Type.Optional(LanguageSchema) }, { additionalProperties: false });
export const IdParams = Type.Object({ id: Type.String({ format: 'uuid' }) }, { additionalProperties: false });

export const AnnouncementSummary = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    category: StringEnum(announcementCategories),
    pinned: Type.Boolean(),
    title: Type.String(),
    /** The language the title is in (the asked one, or zh-CN when it has none). */
    language: LanguageSchema,
    publishedAt: Type.String({ format: 'date-time' }),
    /** Always false for visitors: they have no reads. */
    read: Type.Boolean(),
  },
  { additionalProperties: false },
);
export type AnnouncementSummary = Static<typeof AnnouncementSummary>;

export const AnnouncementPage = Type.Object(
  {
    items: Type.Array(AnnouncementSummary),
    nextCursor: Type.Union([Type.String(), Type.Null()], { description: 'Pass as cursor for the next page' }),
  },
  { additionalProperties: false },
);

export const AnnouncementDetail = Type.Object(
  {
    ...AnnouncementSummary.properties,
    /** Sanitised HTML made from the Markdown when it was published. */
    bodyHtml: Type.String(),
  },
  { additionalProperties: false },
);
export type AnnouncementDetail = Static<typeof AnnouncementDetail>;

export const SystemNotice = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    kind: StringEnum(userNoticeKinds),
    /** What the screen fills into the kind's text: coin, amountMinor, network, reason, ticketId... */
    params: Type.Record(Type.String(), Type.String()),
    createdAt: Type.String({ format: 'date-time' }),
    read: Type.Boolean(),
  },
  { additionalProperties: false },
);
export type SystemNotice = Static<typeof SystemNotice>;

export const SystemNoticePage = Type.Object(
  { items: Type.Array(SystemNotice), nextCursor: Type.Union([Type.String(), Type.Null()]) },
  { additionalProperties: false },
);

export const UnreadCounts = Type.Object(
  { announcements: Type.Integer(), system: Type.Integer(), total: Type.Integer() },
  { additionalProperties: false },
);
export type UnreadCounts = Static<typeof UnreadCounts>;

export const MarkAllReadBody = Type.Object(
  { kind: StringEnum(['announcements', 'system', 'all'] as const) },
  { additionalProperties: false },
);

/** An announcement as an operator writes it: zh-CN is required, the other languages optional. */
const AnnouncementText = Type.Object(
  { title: Type.String({ minLength: 1, maxLength: TITLE_MAX }), bodyMd: Type.String({ maxLength: BODY_MAX }) },
  { additionalProperties: false },
);
export const AnnouncementInput = Type.Object(
  {
    category: StringEnum(announcementCategories),
    pinned: Type.Optional(Type.Boolean()),
    publishAt: Type.Optional(Type.String({ format: 'date-time', description: 'Default: now' })),
    expireAt: Type.Optional(Type.String({ format: 'date-time' })),
    texts: Type.Object(
      {
        'zh-CN': AnnouncementText,
        'zh-TW': Type.Optional(AnnouncementText),
        en: Type.Optional(AnnouncementText),
        es: Type.Optional(AnnouncementText),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);
export type AnnouncementInput = Static<typeof AnnouncementInput>;

export const OpsAnnouncement = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    category: StringEnum(announcementCategories),
    pinned: Type.Boolean(),
    title: Type.String({ description: 'The zh-CN title' }),
    languages: Type.String({ description: 'Comma-separated languages it has' }),
    publishAt: Type.String({ format: 'date-time' }),
    expireAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    withdrawnAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  },
  { additionalProperties: false },
);
export type OpsAnnouncement = Static<typeof OpsAnnouncement>;
