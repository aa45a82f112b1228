import { type Kysely, type Selectable, sql, type Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { AnnouncementsTable, UserNoticesTable } from '../../db/schema-notices.ts';
import { type AnnouncementCategory, FALLBACK_LANGUAGE, type NoticeLanguage, type UserNoticeKind } from './schemas.ts';

type Db = Kysely<Database>;
export type AnnouncementRow = Selectable<AnnouncementsTable>;
export type UserNoticeRow = Selectable<UserNoticesTable>;

/** An announcement in one language (the asked one, else zh-CN), with the reader's read mark. */
export interface AnnouncementView {
  id: string;
  category: AnnouncementCategory;
  pinned: boolean;
  publish_at: Date;
  title: string;
  language: NoticeLanguage;
  body_html: string;
  read: boolean;
}

/** Keyset of the announcement list: pinned first, then newest. */
export interface AnnouncementKey {
  pinned: boolean;
  publishAt: Date;
  id: string;
}

const live = (at: Date) =>
  sql`a.withdrawn_at is null and a.publish_at <= ${at} and (a.expire_at is null or a.expire_at > ${at})`;

function viewQuery(language: NoticeLanguage, userId: string | null) {
  return sql`select a.id, a.category, a.pinned, a.publish_at,
      coalesce(t.title, f.title) as title, coalesce(t.language, f.language) as language,
      coalesce(t.body_html, f.body_html) as body_html, (r.user_id is not null) as read
    from announcements a
    join announcement_texts f on f.announcement_id = a.id and f.language = ${FALLBACK_LANGUAGE}
    left join announcement_texts t on t.announcement_id = a.id and t.language = ${language}
    left join announcement_reads r on r.announcement_id = a.id and r.user_id = ${userId}::uuid`;
}

export async function listAnnouncements(
  db: Db,
  query: { at: Date; language: NoticeLanguage; userId: string | null; after?: AnnouncementKey; limit: number },
): Promise<AnnouncementView[]> {
  const after = query.after
    ? sql`and (a.pinned::int, a.publish_at, a.id) < (${query.after.pinned ? 1 : 0}, ${query.after.publishAt}, ${query.after.id}::uuid)`
    : sql``;
  const { rows } = await sql<AnnouncementView>`${viewQuery(query.language, query.userId)}
    where ${live(query.at)} ${after}
    order by a.pinned desc, a.publish_at desc, a.id desc
    limit ${query.limit}`.execute(db);
  return rows;
}

export async function findLiveAnnouncement(
  db: Db,
  query: { id: string; at: Date; language: NoticeLanguage; userId: string | null },
): Promise<AnnouncementView | undefined> {
  const { rows } = await sql<AnnouncementView>`${viewQuery(query.language, query.userId)}
    where a.id = ${query.id}::uuid and ${live(query.at)}`.execute(db);
  return rows[0];
}

export async function markAnnouncementRead(db: Db, userId: string, announcementId: string, at: Date): Promise<void> {
  await db
    .insertInto('announcement_reads')
    .values({ user_id: userId, announcement_id: announcementId, read_at: at })
    .onConflict((oc) => oc.columns(['user_id', 'announcement_id']).doNothing())
    .execute();
}

/** Marks every live announcement read (live ones are few: dozens, not thousands). */
export async function markAllAnnouncementsRead(db: Db, userId: string, at: Date): Promise<void> {
  await sql`insert into announcement_reads (user_id, announcement_id, read_at)
    select ${userId}::uuid, a.id, ${at} from announcements a where ${live(at)}
    on conflict do nothing`.execute(db);
}

export async function countUnreadAnnouncements(db: Db, userId: string, at: Date): Promise<number> {
  const { rows } = await sql<{ n: string }>`select count(*) as n from announcements a
    where ${live(at)} and not exists
      (select 1 from announcement_reads r where r.announcement_id = a.id and r.user_id = ${userId}::uuid)`.execute(db);
  return Number(rows[0]?.n ?? 0);
}

export async function insertAnnouncement(
  trx: Transaction<Database>,
  row: {
    category: AnnouncementCategory;
    pinned: boolean;
    publishAt: Date;
    expireAt: Date | null;
    createdBy: string | null;
    texts: Array<{ language: NoticeLanguage; title: string; bodyMd: string; bodyHtml: string }>;
  },
  at: Date,
): Promise<string> {
  const { id } = await trx
    .insertInto('announcements')
    .values({
      category: row.category,
      pinned: row.pinned,
      publish_at: row.publishAt,
      expire_at: row.expireAt,
      withdrawn_at: null,
      created_by: row.createdBy,
      created_at: at,
      updated_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await trx
    .insertInto('announcement_texts')
    .values(
      row.texts.map((t) => ({
        announcement_id: id,
        language: t.language,
        title: t.title,
        body_md: t.bodyMd,
        body_html: t.bodyHtml,
      })),
    )
    .execute();
  return id;
}

/** Withdraws a published announcement; false when there is none (or it was withdrawn already). */
export async function withdrawAnnouncement(db: Db, id: string, at: Date): Promise<boolean> {
  const result = await db
    .updateTable('announcements')
    .set({ withdrawn_at: at, updated_at: at })
    .where('id', '=', id)
    .where('withdrawn_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Every announcement, scheduled and withdrawn too, newest first (the operator console's list). */
export async function listAllAnnouncements(db: Db, limit: number) {
  return db
    .selectFrom('announcements as a')
    .innerJoin('announcement_texts as f', (j) =>
      j.onRef('f.announcement_id', '=', 'a.id').on('f.language', '=', FALLBACK_LANGUAGE),
    )
    .select([
      'a.id',
      'a.category',
      'a.pinned',
      'a.publish_at',
      'a.expire_at',
      'a.withdrawn_at',
      'f.title',
      (eb) =>
        eb
          .selectFrom('announcement_texts as t')
          .select(sql<string>`string_agg(t.language, ',' order by t.language)`.as('languages'))
          .whereRef('t.announcement_id', '=', 'a.id')
          .as('languages'),
    ])
    .orderBy('a.created_at', 'desc')
    .orderBy('a.id', 'desc')
    .limit(limit)
    .execute();
}

/**
 * Writes a system notice in the caller's transaction (the event that causes it: a deposit credited,
 * a withdrawal done...). Idempotent on `dedupeKey`: the same event never notifies twice.
 */
export async function recordUserNotice(
  trx: Kysely<Database>,
  notice: { userId: string; kind: UserNoticeKind; params: Record<string, string>; dedupeKey: string },
  at: Date,
): Promise<void> {
  await trx
    .insertInto('user_notices')
    .values({
      user_id: notice.userId,
      kind: notice.kind,
      params: notice.params,
      dedupe_key: notice.dedupeKey,
      created_at: at,
      read_at: null,
    })
    .onConflict((oc) => oc.column('dedupe_key').doNothing())
    .execute();
}

export async function listUserNotices(
  db: Db,
  query: { userId: string; before?: { createdAt: Date; id: string }; limit: number },
): Promise<UserNoticeRow[]> {
  let q = db.selectFrom('user_notices').selectAll().where('user_id', '=', query.userId);
  if (query.before) {
    const { createdAt, id } = query.before;
    q = q.where((eb) =>
      eb.or([eb('created_at', '<', createdAt), eb.and([eb('created_at', '=', createdAt), eb('id', '<', id)])]),
    );
  }
  return q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(query.limit).execute();
}

/** Marks one of the user's notices read; false when it is not theirs. */
export async function markUserNoticeRead(db: Db, userId: string, id: string, at: Date): Promise<boolean> {
  const result = await db
    .updateTable('user_notices')
    .set({ read_at: sql`coalesce(read_at, ${at})` })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function markAllUserNoticesRead(db: Db, userId: string, at: Date): Promise<void> {
  await db
    .updateTable('user_notices')
    .set({ read_at: at })
    .where('user_id', '=', userId)
    .where('read_at', 'is', null)
    .execute();
}

export async function countUnreadUserNotices(db: Db, userId: string): Promise<number> {
  const { n } = await db
    .selectFrom('user_notices')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('user_id', '=', userId)
    .where('read_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(n);
}
