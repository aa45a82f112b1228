import type { ColumnType, Generated, JSONColumnType } from 'kysely';
import type { AnnouncementCategory, UserNoticeKind } from '../modules/notices/schemas.ts';
import type { OperatorRole } from '../modules/operators/roles.ts';
import type { languages } from '../modules/settings/schemas.ts';

type Language = (typeof languages)[number];

/**
 * Tables of operators and notices (migration 0016), users' mail (0017) and support messages (0018), kept beside schema.ts so neither file grows past
 * its size; `Database` there extends `NoticesDatabase`.
 */
export interface NoticesDatabase {
  operators: OperatorsTable;
  operator_sessions: OperatorSessionsTable;
  announcements: AnnouncementsTable;
  announcement_texts: AnnouncementTextsTable;
  announcement_reads: AnnouncementReadsTable;
  user_notices: UserNoticesTable;
  user_mails: UserMailsTable;
  support_messages: SupportMessagesTable;
}

/** Leave-a-message (migration 0018): a phone (E.164, with its country) or an e-mail, and the text. */
export interface SupportMessagesTable {
  id: Generated<string>;
  user_id: string | null;
  phone_country: string | null;
  phone_e164: string | null;
  email: string | null;
  content: string;
  ip: string;
  created_at: Date;
  answer: string | null;
  answered_at: Date | null;
  answered_by: string | null;
  /** The page's language when it was written (migration 0060); the answer is mailed in it. */
  language: Generated<string | null>;
}

/** Mail a user sent from the app (migration 0017); its state is its outbox row's. */
export interface UserMailsTable {
  id: Generated<string>;
  user_id: string;
  recipients: string[];
  subject: string;
  body: string;
  outbox_id: string;
  resent_from: string | null;
  created_at: Date;
  /** The sender's IP (migration 0052): the daily limit counts per IP too; null for older rows. */
  ip: Generated<string | null>;
}

/** People who answer support and publish announcements (modules/operators); never users. */
export interface OperatorsTable {
  id: Generated<string>;
  name: string;
  /** argon2id, like users' passwords; null until set at enrolment (migration 0084). */
  password_hash: string | null;
  created_at: Date;
  disabled_at: Date | null;
  /** support, compliance, finance, admin (never admin with finance). */
  roles: ColumnType<OperatorRole[], OperatorRole[] | undefined, OperatorRole[]>;
  /** The authenticator app's secret, sealed (AES-256-GCM, bound to the operator id). */
  totp_secret_sealed: Buffer | null;
  totp_confirmed_at: Date | null;
  /** The newest RFC 6238 step accepted: a code is valid once. */
  totp_last_step: string | null;
  /** SHA-256 of the one-time enrolment link's token. */
  enrolment_token_hash: Buffer | null;
  enrolment_expires_at: Date | null;
  /** Who issued the (current or last spent) enrolment link: a console admin's id, null for the CLI (0094). */
  enrolment_issued_by: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface OperatorSessionsTable {
  id: Generated<string>;
  operator_id: string;
  /** SHA-256 of the cookie token. */
  token_hash: Buffer;
  created_at: Date;
  last_seen_at: Date;
  expires_at: Date;
  revoked_at: Date | null;
}

export interface AnnouncementsTable {
  id: Generated<string>;
  category: AnnouncementCategory;
  pinned: Generated<boolean>;
  publish_at: Date;
  expire_at: Date | null;
  withdrawn_at: Date | null;
  /** The operator who wrote it; null when published by `npm run ops -- notices publish`. */
  created_by: string | null;
  created_at: Date;
  updated_at: Date;
}

/** One language of an announcement; zh-CN is required (the fallback). `body_html` is sanitised. */
export interface AnnouncementTextsTable {
  announcement_id: string;
  language: Language;
  title: string;
  body_md: string;
  body_html: string;
}

export interface AnnouncementReadsTable {
  user_id: string;
  announcement_id: string;
  read_at: Date;
}

/** A system notice: its kind and parameters; the screen words it in the reader's language. */
export interface UserNoticesTable {
  id: Generated<string>;
  user_id: string;
  kind: UserNoticeKind;
  params: JSONColumnType<Record<string, string>, Record<string, string>, Record<string, string>>;
  /** The causing event, e.g. `deposit:<id>`: its notice is written once. */
  dedupe_key: string;
  created_at: Date;
  read_at: Date | null;
}
