import { type Kysely, type Selectable, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { UploadsTable } from '../../db/schema-support.ts';

type Db = Kysely<Database>;
export type UploadRow = Selectable<UploadsTable>;
export type NewUpload = Omit<UploadRow, 'attached_to' | 'thread_user_id' | 'attach_order'>;

export async function insertUpload(db: Db, row: NewUpload): Promise<UploadRow> {
  return db.insertInto('uploads').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function findUpload(db: Db, id: string): Promise<UploadRow | undefined> {
  return db.selectFrom('uploads').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Bytes a user has stored, and how many uploads they made since `since`. */
export async function usageOf(db: Db, userId: string, since: Date): Promise<{ bytes: bigint; recent: number }> {
  const row = await db
    .selectFrom('uploads')
    .select((eb) => [
      eb.fn.coalesce(eb.fn.sum<string>('size_bytes'), eb.val('0')).as('bytes'),
      eb.fn.countAll<string>().filterWhere('created_at', '>', since).as('recent'),
    ])
    .where('owner_user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return { bytes: BigInt(row.bytes), recent: Number(row.recent) };
}

/**
 * Who uploads: a user, an operator, or a visitor (the hash of their cookie token, and the network they
 * are counted by: clientNetwork(request.ip), an IPv4 address or an IPv6 /64, kept in uploader_ip).
 */
export type Uploader = { userId: string } | { operatorId: string } | { visitor: string; ip: string };

/** The owner columns of an upload by `by`. */
export function ownerOf(
  by: Uploader,
): Pick<UploadRow, 'owner_user_id' | 'owner_operator_id' | 'owner_visitor' | 'uploader_ip'> {
  return {
    owner_user_id: 'userId' in by ? by.userId : null,
    owner_operator_id: 'operatorId' in by ? by.operatorId : null,
    owner_visitor: 'visitor' in by ? by.visitor : null,
    uploader_ip: 'visitor' in by ? by.ip : null,
  };
}

/**
 * Attaches the uploader's own unattached uploads of `place` to a ticket message or chat message.
 * Returns how many were attached: fewer than asked means some id was not theirs, not of that
 * place or already used, and the caller's transaction must be rolled back.
 */
export async function attachUploads(
  db: Db,
  ids: readonly string[],
  by: Uploader,
  target: { place: UploadsTable['place']; attachedTo: string; threadUserId: string | null },
): Promise<number> {
  if (ids.length === 0) return 0;
  let q = db
    .updateTable('uploads')
    .set({
      attached_to: target.attachedTo,
      thread_user_id: target.threadUserId,
      attach_order: sql<number>`array_position(${sql.val([...ids])}::text[], id)`,
    })
    .where('id', 'in', [...ids])
    .where('place', '=', target.place)
    .where('attached_to', 'is', null);
  if ('userId' in by) q = q.where('owner_user_id', '=', by.userId);
  else if ('operatorId' in by) q = q.where('owner_operator_id', '=', by.operatorId);
  else q = q.where('owner_visitor', '=', by.visitor);
  const result = await q.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** The uploads attached to any of `targets`, oldest first. */
export async function attachedTo(db: Db, targets: readonly string[]): Promise<UploadRow[]> {
  if (targets.length === 0) return [];
  return db
    .selectFrom('uploads')
    .selectAll()
    .where('attached_to', 'in', [...targets])
    .orderBy('attach_order')
    .execute();
}

export async function findUploads(db: Db, ids: readonly string[]): Promise<UploadRow[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('uploads')
    .selectAll()
    .where('id', 'in', [...ids])
    .execute();
}

/** Uploads (count and bytes) from a visitor network without an account since `since` (their hourly limits). */
export async function visitorUploadsSince(db: Db, network: string, since: Date): Promise<{ n: number; bytes: number }> {
  const row = await db
    .selectFrom('uploads')
    .select((eb) => [eb.fn.countAll<string>().as('n'), eb.fn.sum<string | null>('size_bytes').as('bytes')])
    .where('owner_visitor', 'is not', null)
    .where('uploader_ip', '=', network)
    .where('created_at', '>', since)
    .executeTakeFirstOrThrow();
  return { n: Number(row.n), bytes: Number(row.bytes ?? 0) };
}

/** How long an upload may wait to be attached to a message before retention deletes it. */
export const UNATTACHED_UPLOAD_TTL_MS = 86_400_000;

/**
 * Retention (issue 38): uploads never attached to a message a day after they were made. Nothing can
 * show them and they still count against the uploader's quota, so unattached files were free storage.
 * Rows only: objects are content-addressed and may be shared by another upload of the same bytes.
 */
export async function purgeUnattachedUploads(db: Db, now: Date, limit: number): Promise<number> {
  const before = new Date(now.getTime() - UNATTACHED_UPLOAD_TTL_MS);
  const result = await sql`delete from uploads where id in (
    select u.id from uploads u
    where u.attached_to is null and u.created_at < ${before}
      and not exists (select 1 from chat_messages c where c.upload_id = u.id)
    limit ${limit} for update skip locked)`.execute(db);
  return Number(result.numAffectedRows ?? 0n);
}
