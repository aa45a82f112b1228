import { createHash, timingSafeEqual } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import {
  BASE_FILES,
  connect,
  macOfFile,
  type RemoteObject,
  type S3ArchiveOptions,
  upload,
} from './s3-archive-objects.ts';
import type { ArchiveLayout } from './wal-archive.ts';

/** Whether what the bucket holds under a name is the local file (s3-archive.ts ships nothing over a conflict). */

async function sha256Of(chunks: AsyncIterable<unknown>): Promise<string> {
  const h = createHash('sha256');
  for await (const chunk of chunks) h.update(chunk as Uint8Array);
  return h.digest('hex');
}

/**
 * Whether the bucket's object `key` holds the local file. Its `cw-mac` (HeadObject) against the MAC of
 * the local file: the ETag is not used, since with SSE-KMS/SSE-C (or an auto-encrypting MinIO) it is
 * 32 hex but not the MD5 of the data (review s8b E), and a multipart ETag says nothing (F). An object
 * without a MAC was shipped before MACs existed: its content is compared by SHA-256 (streamed, not held
 * in memory), and when it is ours it is signed again (re-uploaded), so that it is checked only once.
 */
async function objectMatches(s3: S3ArchiveOptions, remote: RemoteObject, key: string, file: string): Promise<boolean> {
  if (remote.size !== (await stat(file)).size) return false;
  const { sdk, client } = await connect(s3);
  const Key = `${s3.prefix}${key}`;
  const head = await client.send(new sdk.HeadObjectCommand({ Bucket: s3.bucket, Key }));
  const mac = head.Metadata?.['cw-mac'];
  if (mac !== undefined) {
    const local = Buffer.from(await macOfFile(s3, key, file), 'hex');
    return /^[0-9a-f]{64}$/.test(mac) && timingSafeEqual(local, Buffer.from(mac, 'hex'));
  }
  const answer = await client.send(new sdk.GetObjectCommand({ Bucket: s3.bucket, Key }));
  if (!answer.Body) return false;
  const [theirs, ours] = await Promise.all([
    sha256Of(answer.Body as AsyncIterable<unknown>),
    sha256Of(createReadStream(file)),
  ]);
  if (theirs !== ours) return false;
  await upload(s3, key, file);
  return true;
}

/**
 * Whether the bucket's copy of a local segment is the same segment: the `.gz` and its `.sha256`, each by
 * objectMatches. A name alone is not enough (review s8 finding 2.3): a second cluster on the same
 * prefix, or a planted object, would otherwise pass for shipped. Segments up to the `s3-shipped` marker
 * were confirmed by an earlier run: not asked again (one HEAD per object and segment, not every 30 s).
 */
export async function sameAsLocal(
  s3: S3ArchiveOptions,
  layout: ArchiveLayout,
  remote: Map<string, RemoteObject>,
  file: string,
  confirmedUpTo: string,
): Promise<boolean> {
  const gz = remote.get(`wal/${file}`);
  const sum = remote.get(`wal/${file}.sha256`);
  if (!gz || !sum) return false;
  if (confirmedUpTo !== '' && file.replace(/\.gz$/, '') <= confirmedUpTo) return true;
  return (
    (await objectMatches(s3, sum, `wal/${file}.sha256`, path.join(layout.walDir, `${file}.sha256`))) &&
    (await objectMatches(s3, gz, `wal/${file}`, path.join(layout.walDir, file)))
  );
}

/** Whether every file of the bucket's copy of a local base is the local one (objectMatches). */
export async function sameBaseAsLocal(
  s3: S3ArchiveOptions,
  layout: ArchiveLayout,
  remote: Map<string, RemoteObject>,
  id: string,
): Promise<boolean> {
  for (const name of BASE_FILES) {
    const object = remote.get(`base/${id}/${name}`);
    if (!object || !(await objectMatches(s3, object, `base/${id}/${name}`, path.join(layout.baseDir, id, name))))
      return false;
  }
  return true;
}
