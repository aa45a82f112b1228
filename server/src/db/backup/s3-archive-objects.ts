import { createHmac } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { rename, stat, writeFile } from 'node:fs/promises';
import { lazyClient, type S3Options } from '../../modules/uploads/s3-store.ts';
import { macMatches, macOf } from './backup-signing-key.ts';

/** The archive's objects in the bucket (s3-archive.ts ships them): their names, listing, upload and download, each object signed. */
/** The uploads' S3 settings, with the archive's prefix and signing key (s3ArchiveOf, s3-archive-settings.ts). */
export interface S3ArchiveOptions extends S3Options {
  /** Key prefix of the archive in the bucket, e.g. `backup/`. */
  prefix: string;
  /** Authenticates every object (backup-signing-key.ts); never sent to the bucket. */
  signingKey: Buffer;
}

const MAX_LIST_PAGES = 1_000;
/** A manifest is a few hundred bytes: a bigger one is not ours (and is not read into memory). */
export const MAX_MANIFEST_BYTES = 64 * 1024;
const clients = new WeakMap<S3ArchiveOptions, ReturnType<typeof lazyClient>>();

/** One SDK client per settings object (loaded on first use, as the uploads' store does). */
export function connect(s3: S3ArchiveOptions) {
  let made = clients.get(s3);
  if (!made) {
    made = lazyClient(s3);
    clients.set(s3, made);
  }
  return made();
}
/** `<24 hex>.gz`, `<24 hex>.<8 hex>.backup.gz`, `<8 hex>.history.gz`, `<24 hex>.partial.gz`. */
export const WAL_FILE = /^([0-9A-F]{8}(?:[0-9A-F]{16}(?:\.[0-9A-F]{8}\.backup|\.partial)?|\.history))\.gz(\.sha256)?$/;
/** A base's id (base-backup.ts makes `20261127T031500Z`-style ids): checked before it names a folder. */
export const BASE_ID = /^[0-9A-Za-z_-]{1,64}$/;
export const MANIFEST_KEY = /^base\/([0-9A-Za-z_-]{1,64})\/manifest\.json$/;
export const BASE_FILES = ['base.tar.gz', 'backup_label', 'manifest.json'] as const;

export interface RemoteObject {
  size: number;
}

export async function listKeys(
  s3: S3ArchiveOptions,
  under: string,
  startAfter?: string,
): Promise<Map<string, RemoteObject>> {
  const { sdk, client } = await connect(s3);
  const keys = new Map<string, RemoteObject>();
  let token: string | undefined;
  for (let page = 0; page < MAX_LIST_PAGES; page += 1) {
    const answer = await client.send(
      new sdk.ListObjectsV2Command({
        Bucket: s3.bucket,
        Prefix: `${s3.prefix}${under}`,
        ...(token ? { ContinuationToken: token } : {}),
        ...(startAfter ? { StartAfter: `${s3.prefix}${startAfter}` } : {}),
      }),
    );
    for (const o of answer.Contents ?? []) if (o.Key) keys.set(o.Key.slice(s3.prefix.length), { size: o.Size ?? -1 });
    if (!answer.IsTruncated || !answer.NextContinuationToken) return keys;
    token = answer.NextContinuationToken;
  }
  throw new Error(`more than ${MAX_LIST_PAGES} pages of objects under ${s3.prefix}${under}`);
}

/** The MAC an object of this installation carries (exported for tests that forge a signed object). */
export function signObject(s3: S3ArchiveOptions, key: string, bytes: Buffer): string {
  return macOf(s3.signingKey, key, bytes);
}

export async function macOfFile(s3: S3ArchiveOptions, key: string, file: string): Promise<string> {
  const h = createHmac('sha256', s3.signingKey).update(`${key}\n`);
  for await (const chunk of createReadStream(file)) h.update(chunk as Buffer);
  return h.digest('hex');
}

export async function upload(s3: S3ArchiveOptions, key: string, file: string): Promise<void> {
  const { sdk, client } = await connect(s3);
  const { size } = await stat(file);
  const mac = await macOfFile(s3, key, file);
  await client.send(
    new sdk.PutObjectCommand({
      Bucket: s3.bucket,
      Key: `${s3.prefix}${key}`,
      Body: createReadStream(file),
      ContentLength: size,
      Metadata: { 'cw-mac': mac },
    }),
  );
}

/** An object in the bucket that this installation cannot vouch for (MAC, name, size or id). */
export class UnverifiedObject extends Error {}

/** Fetches one object and checks its MAC BEFORE it is written where a restore would use it. */
export async function download(s3: S3ArchiveOptions, key: string, file: string): Promise<void> {
  const { sdk, client } = await connect(s3);
  const answer = await client.send(new sdk.GetObjectCommand({ Bucket: s3.bucket, Key: `${s3.prefix}${key}` }));
  if (!answer.Body) throw new Error(`empty object ${key}`);
  const bytes = Buffer.from(await answer.Body.transformToByteArray());
  if (!macMatches(s3.signingKey, key, bytes, answer.Metadata?.['cw-mac']))
    throw new UnverifiedObject(
      `object ${key} in the bucket has a missing or wrong MAC (not shipped by this installation, or changed since): restore refused`,
    );
  await writeFile(`${file}.tmp`, bytes);
  await rename(`${file}.tmp`, file);
}
