import { createHash, randomBytes } from 'node:crypto';
import { readFile, unlink } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { UploadPlace } from '../../db/schema-support.ts';
import { AppError, NotFoundError } from '../../errors/app-error.ts';
import { clientNetwork } from '../../lib/client-network.ts';
import type { MailAttachment } from '../mail/outbox.ts';
import { reencodeImage } from './images.ts';
import {
  type FileType,
  MEDIA_TYPES,
  PLACE_RULES,
  RASTER_TYPES,
  UPLOADS_PER_HOUR,
  VISITOR_UPLOAD_BYTES_PER_HOUR,
  VISITOR_UPLOADS_PER_HOUR,
} from './places.ts';
import { fileTooLarge, type ReceivedFile, receiveFile } from './receive.ts';
import {
  findUpload,
  insertUpload,
  type NewUpload,
  ownerOf,
  type Uploader,
  type UploadRow,
  usageOf,
  visitorUploadsSince,
} from './repository.ts';
import type { Upload } from './schemas.ts';
import { sniffType } from './sniff.ts';
import type { ObjectStore } from './storage.ts';
import { renderSvg, sanitizeSvg } from './svg.ts';

const HOUR_MS = 3_600_000;
/** An SVG is parsed as a document in memory: keep it far below the raster limits. */
const SVG_MAX_BYTES = 1024 * 1024;

export type Audience = 'user' | 'ops';
export type Reader = { userId: string } | { operatorId: string };

export interface UploadsService {
  /** Reads one file from a multipart request, checks and stores it, unattached. */
  accept(request: FastifyRequest, uploader: Uploader, place: UploadPlace): Promise<Upload>;
  /** The bytes of an upload the reader may see (owner, the user of its thread, or any operator). */
  open(
    id: string,
    reader: Reader,
    variant: 'display' | 'original',
  ): Promise<{ stream: Readable; mediaType: string; name: string }>;
  view(row: UploadRow, audience: Audience): Upload;
}

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/** What is stored for a checked file: objects put in the store, and the row's facts. */
type Stored = Pick<NewUpload, 'kind' | 'media_type' | 'width' | 'height' | 'display_key' | 'original_key'> & {
  sizeBytes: number;
};

async function storeChecked(store: ObjectStore, received: ReceivedFile, type: FileType): Promise<Stored> {
  const mediaType = MEDIA_TYPES[type];
  if (RASTER_TYPES.has(type)) {
    const image = await reencodeImage(received.file, type).catch((cause) => {
      throw new AppError('FILE_TYPE_REFUSED', 'The image cannot be read', { cause });
    });
    const key = sha256(image.data);
    await store.put(key, image.data, mediaType);
    return {
      kind: 'image',
      media_type: mediaType,
      width: image.width,
      height: image.height,
      display_key: key,
      original_key: null,
      sizeBytes: image.data.length,
    };
  }
  if (type === 'svg') {
    if (received.bytes > SVG_MAX_BYTES) throw fileTooLarge(SVG_MAX_BYTES);
    const clean = Buffer.from(await sanitizeSvg(await readFile(received.file, 'utf8')));
    const drawn = await renderSvg(clean.toString('utf8')).catch((cause) => {
      throw new AppError('FILE_TYPE_REFUSED', 'The SVG cannot be drawn', { cause });
    });
    const originalKey = sha256(clean);
    const displayKey = sha256(drawn.png);
    await store.put(originalKey, clean, mediaType);
    await store.put(displayKey, drawn.png, 'image/png');
    return {
      kind: 'image',
      media_type: mediaType,
      width: drawn.width,
      height: drawn.height,
      display_key: displayKey,
      original_key: originalKey,
      sizeBytes: clean.length + drawn.png.length,
    };
  }
  await store.put(received.sha256, { file: received.file, bytes: received.bytes }, mediaType);
  return {
    kind: 'file',
    media_type: mediaType,
    width: null,
    height: null,
    display_key: null,
    original_key: received.sha256,
    sizeBytes: received.bytes,
  };
}

/** An upload as an e-mail attachment: the shown image (an SVG's PNG drawing), or the file as kept. */
export function mailAttachmentOf(row: UploadRow): MailAttachment {
  const key = row.display_key ?? row.original_key;
  if (!key) throw new Error(`upload ${row.id} has no object`);
  const drawnSvg = row.display_key !== null && row.media_type === 'image/svg+xml';
  return {
    objectKey: key,
    contentType: drawnSvg ? 'image/png' : row.media_type,
    filename: drawnSvg ? `${row.name.replace(/\.svg$/i, '')}.png` : row.name,
  };
}

/** Whose uploads queue behind one lock: the user, the operator, or the visitor's IP. */
function uploaderKey(uploader: Uploader): string {
  if ('userId' in uploader) return `user:${uploader.userId}`;
  if ('operatorId' in uploader) return `operator:${uploader.operatorId}`;
  return `ip:${uploader.ip}`;
}

export function createUploadsService(deps: {
  db: Kysely<Database>;
  now: () => Date;
  store: ObjectStore;
  tmpDir: string;
  /** Bytes one user may keep (UPLOAD_QUOTA_BYTES). */
  quotaBytes: number;
}): UploadsService {
  const { db, now, store } = deps;

  async function checkUsage(uploader: Uploader, incoming: number, conn: Kysely<Database> = db): Promise<void> {
    const at = now();
    if ('visitor' in uploader) {
      // uploader.ip is already the visitor's network (accept() maps it): an IPv4 address or an IPv6 /64.
      const recent = await visitorUploadsSince(conn, uploader.ip, new Date(at.getTime() - HOUR_MS));
      if (recent.n >= VISITOR_UPLOADS_PER_HOUR)
        throw new AppError('RATE_LIMITED', `At most ${VISITOR_UPLOADS_PER_HOUR} uploads an hour`, {
          details: { limit: VISITOR_UPLOADS_PER_HOUR, retryAfterSeconds: 3600 },
        });
      if (recent.bytes + incoming > VISITOR_UPLOAD_BYTES_PER_HOUR)
        throw new AppError('RATE_LIMITED', `At most ${VISITOR_UPLOAD_BYTES_PER_HOUR} bytes an hour`, {
          details: { retryAfterSeconds: 3600 },
        });
      return;
    }
    if (!('userId' in uploader)) return;
    const usage = await usageOf(conn, uploader.userId, new Date(at.getTime() - HOUR_MS));
    if (usage.recent >= UPLOADS_PER_HOUR)
      throw new AppError('RATE_LIMITED', `At most ${UPLOADS_PER_HOUR} uploads an hour`, {
        details: { limit: UPLOADS_PER_HOUR, retryAfterSeconds: 3600 },
      });
    if (usage.bytes + BigInt(incoming) > BigInt(deps.quotaBytes))
      throw new AppError('STORAGE_QUOTA_EXCEEDED', 'Your storage for files is full', {
        details: { limit: deps.quotaBytes },
      });
  }

  const service: UploadsService = {
    async accept(request, asked, place) {
      const rules = PLACE_RULES[place];
      // A visitor is counted (and locked) by network, not by address: see visitor-network.ts.
      const uploader: Uploader = 'visitor' in asked ? { ...asked, ip: clientNetwork(asked.ip) } : asked;
      // Over the hourly count or with a full quota, refuse before reading up to 50 MB; the quota is
      // checked again with the file's real size once it is read.
      await checkUsage(uploader, 0);
      const received = await receiveFile(request, { maxBytes: rules.maxBytes, tmpDir: deps.tmpDir });
      try {
        const type = await sniffType(received.head);
        // The bytes decide; a name that claims another type (a PNG called .svg, HTML called .png) is refused.
        if (type === null || !rules.types.includes(type) || (received.claimed !== null && received.claimed !== type))
          throw new AppError('FILE_TYPE_REFUSED', `Allowed here: ${rules.types.join(', ')}`);
        // The last check, the store and the insert under a lock on the uploader: unlocked, concurrent
        // uploads all passed both checks and each was kept (issue 38). One uploader's files queue here.
        const row = await db.transaction().execute(async (trx) => {
          await sql`select pg_advisory_xact_lock(hashtextextended(${`uploads:${uploaderKey(uploader)}`}, 0))`.execute(
            trx,
          );
          await checkUsage(uploader, received.bytes, trx);
          const stored = await storeChecked(store, received, type);
          const { sizeBytes, ...facts } = stored;
          return insertUpload(trx, {
            id: randomBytes(16).toString('base64url'),
            ...ownerOf(uploader),
            place,
            name: received.name,
            size_bytes: String(sizeBytes),
            created_at: now(),
            ...facts,
          });
        });
        return service.view(row, 'operatorId' in uploader ? 'ops' : 'user');
      } finally {
        await unlink(received.file).catch(() => undefined);
      }
    },

    async open(id, reader, variant) {
      const row = await findUpload(db, id);
      const allowed =
        row !== undefined &&
        ('operatorId' in reader || row.owner_user_id === reader.userId || row.thread_user_id === reader.userId);
      // Someone else's file is "not found", exactly like a missing one: ids are not confirmed to guessers.
      if (!row || !allowed) throw new NotFoundError('No such file');
      const key =
        variant === 'original' ? (row.original_key ?? row.display_key) : (row.display_key ?? row.original_key);
      if (!key) throw new NotFoundError('No such file');
      const isDisplay = key === row.display_key;
      const mediaType = isDisplay && row.media_type === 'image/svg+xml' ? 'image/png' : row.media_type;
      return { stream: await store.get(key), mediaType, name: row.name };
    },

    view(row, audience) {
      return {
        id: row.id,
        kind: row.kind,
        mediaType: row.media_type,
        name: row.name,
        sizeBytes: row.size_bytes,
        width: row.width,
        height: row.height,
        url: `${audience === 'ops' ? '/api/ops/uploads' : '/api/uploads'}/${row.id}`,
      };
    },
  };
  return service;
}
