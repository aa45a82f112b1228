import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { NotFoundError, ValidationError } from '../../errors/app-error.ts';
import { decodeCursor, decodeTimeIdCursor, encodeCursor, encodeTimeIdCursor } from '../../http/cursor.ts';
import { appendAudit } from '../audit/repository.ts';
import { renderMarkdown } from './markdown.ts';
import {
  type AnnouncementKey,
  type AnnouncementView,
  countUnreadAnnouncements,
  countUnreadUserNotices,
  findLiveAnnouncement,
  insertAnnouncement,
  listAllAnnouncements,
  listAnnouncements,
  listUserNotices,
  markAllAnnouncementsRead,
  markAllUserNoticesRead,
  markAnnouncementRead,
  markUserNoticeRead,
  type UserNoticeRow,
  withdrawAnnouncement,
} from './repository.ts';
import {
  type AnnouncementDetail,
  type AnnouncementInput,
  type AnnouncementSummary,
  FALLBACK_LANGUAGE,
  type NoticeLanguage,
  type OpsAnnouncement,
  type SystemNotice,
  type UnreadCounts,
} from './schemas.ts';

const PAGE_DEFAULT = 20;

export interface NoticesService {
  announcements(
    userId: string | null,
    query: { lang?: NoticeLanguage; cursor?: string; limit?: number },
  ): Promise<{ items: AnnouncementSummary[]; nextCursor: string | null }>;
  /** One live announcement; reading it marks it read for a signed-in user. */
  announcement(userId: string | null, id: string, lang?: NoticeLanguage): Promise<AnnouncementDetail>;
  system(
    userId: string,
    query: { cursor?: string; limit?: number },
  ): Promise<{ items: SystemNotice[]; nextCursor: string | null }>;
  readSystem(userId: string, id: string): Promise<void>;
  readAll(userId: string, kind: 'announcements' | 'system' | 'all'): Promise<void>;
  unread(userId: string | null): Promise<UnreadCounts>;
  /** Operators (console or `npm run ops -- notices publish`): render, check and store; returns the id. */
  publish(input: AnnouncementInput, operatorId: string | null): Promise<string>;
  /** `by`: the operator (console), or null from `npm run ops` (audited as the command line). */
  withdraw(id: string, by: { operatorId: string; name: string } | null): Promise<void>;
  /** The operator console's list: every announcement, scheduled and withdrawn too. */
  all(): Promise<OpsAnnouncement[]>;
}

/** Newest first, at most this many in the console's list. */
const OPS_LIST_MAX = 200;

function summary(view: AnnouncementView): AnnouncementSummary {
  return {
    id: view.id,
    category: view.category,
    pinned: view.pinned,
    title: view.title,
    language: view.language,
    publishedAt: view.publish_at.toISOString(),
    read: view.read,
  };
}

function systemNotice(row: UserNoticeRow): SystemNotice {
  return {
    id: row.id,
    kind: row.kind,
    params: row.params,
    createdAt: row.created_at.toISOString(),
    read: row.read_at !== null,
  };
}

function checkedDates(input: AnnouncementInput, at: Date): { publishAt: Date; expireAt: Date | null } {
  const publishAt = input.publishAt ? new Date(input.publishAt) : at;
  const expireAt = input.expireAt ? new Date(input.expireAt) : null;
  if (expireAt && expireAt <= publishAt)
    throw new ValidationError('expireAt must be after publishAt', [
      { field: 'expireAt', message: 'must be after publishAt', rule: 'range' },
    ]);
  return { publishAt, expireAt };
}

export function createNoticesService(deps: {
  db: Kysely<Database>;
  /** Lag-tolerant lists and counts (the replica in a replica-read route); default `db`. Never for a mark. */
  readDb?: Kysely<Database>;
  now: () => Date;
}): NoticesService {
  const { db, now } = deps;
  const reads = deps.readDb ?? db;
  return {
    async announcements(userId, query) {
      const limit = query.limit ?? PAGE_DEFAULT;
      let after: AnnouncementKey | undefined;
      if (query.cursor) {
        const [pinned, at, id] = decodeCursor(query.cursor, 3);
        after = { pinned: pinned === '1', publishAt: new Date(at as string), id: id as string };
      }
      const rows = await listAnnouncements(reads, {
        at: now(),
        language: query.lang ?? FALLBACK_LANGUAGE,
        userId,
        limit,
        ...(after ? { after } : {}),
      });
      const last = rows.at(-1);
      const nextCursor =
        rows.length === limit && last
          ? encodeCursor([last.pinned ? '1' : '0', last.publish_at.toISOString(), last.id])
          : null;
      return { items: rows.map(summary), nextCursor };
    },

    async announcement(userId, id, lang) {
      const at = now();
      const view = await findLiveAnnouncement(db, { id, at, language: lang ?? FALLBACK_LANGUAGE, userId });
      if (!view) throw new NotFoundError('No such announcement');
      if (userId !== null && !view.read) await markAnnouncementRead(db, userId, id, at);
      return { ...summary(view), read: userId !== null, bodyHtml: view.body_html };
    },

    async system(userId, query) {
      const limit = query.limit ?? PAGE_DEFAULT;
      let before: { createdAt: Date; id: string } | undefined;
      if (query.cursor) {
        before = decodeTimeIdCursor(query.cursor);
      }
      const rows = await listUserNotices(reads, { userId, limit, ...(before ? { before } : {}) });
      const last = rows.at(-1);
      const nextCursor =
        rows.length === limit && last ? encodeTimeIdCursor({ createdAt: last.created_at, id: last.id }) : null;
      return { items: rows.map(systemNotice), nextCursor };
    },

    async readSystem(userId, id) {
      if (!(await markUserNoticeRead(db, userId, id, now()))) throw new NotFoundError('No such notice');
    },

    async readAll(userId, kind) {
      const at = now();
      if (kind !== 'system') await markAllAnnouncementsRead(db, userId, at);
      if (kind !== 'announcements') await markAllUserNoticesRead(db, userId, at);
    },

    async unread(userId) {
      if (userId === null) return { announcements: 0, system: 0, total: 0 };
      const [announcements, system] = await Promise.all([
        countUnreadAnnouncements(reads, userId, now()),
        countUnreadUserNotices(reads, userId),
      ]);
      return { announcements, system, total: announcements + system };
    },

    async publish(input, operatorId) {
      const at = now();
      const { publishAt, expireAt } = checkedDates(input, at);
      const texts = Object.entries(input.texts)
        .filter((entry): entry is [NoticeLanguage, { title: string; bodyMd: string }] => entry[1] !== undefined)
        .map(([language, text]) => ({
          language,
          title: text.title.trim(),
          bodyMd: text.bodyMd,
          bodyHtml: renderMarkdown(text.bodyMd),
        }));
      const blank = texts.find((t) => t.title === '');
      if (blank)
        throw new ValidationError('A title is blank', [
          { field: `texts.${blank.language}.title`, message: 'must not be blank', rule: 'required' },
        ]);
      return db.transaction().execute((trx) =>
        insertAnnouncement(
          trx,
          {
            category: input.category,
            pinned: input.pinned ?? false,
            publishAt,
            expireAt,
            createdBy: operatorId,
            texts,
          },
          at,
        ),
      );
    },

    async withdraw(id, by) {
      await db.transaction().execute(async (trx) => {
        if (!(await withdrawAnnouncement(trx, id, now()))) throw new NotFoundError('No such announcement to withdraw');
        await appendAudit(trx, {
          event: 'announcement_withdrawn',
          at: now(),
          details: { announcementId: id, ...(by ? { operator: by.name, operatorId: by.operatorId } : { via: 'cli' }) },
        });
      });
    },

    async all() {
      const rows = await listAllAnnouncements(db, OPS_LIST_MAX);
      return rows.map((r) => ({
        id: r.id,
        category: r.category,
        pinned: r.pinned,
        title: r.title,
        languages: r.languages ?? '',
        publishAt: r.publish_at.toISOString(),
        expireAt: r.expire_at?.toISOString() ?? null,
        withdrawnAt: r.withdrawn_at?.toISOString() ?? null,
      }));
    },
  };
}
