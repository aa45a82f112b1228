import { createReadStream, existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { lazyClient, type S3Options } from '../../modules/uploads/s3-store.ts';
import { type BaseBackupManifest, listBaseBackups } from './base-backup.ts';
import { chooseBase, type RestoreTarget } from './restore.ts';
import type { ArchiveLayout } from './wal-archive.ts';

/**
 * The archive on S3-compatible storage (issue 34), with the uploads' S3_* settings. Two stages, like
 * pgBackRest's asynchronous archiving: PostgreSQL's archive_command writes each segment to the folder
 * (gzip + SHA-256, wal-archive.ts: fast, no network in the server's archiver), and this shipper copies
 * every complete segment and base backup to `<prefix>wal/` and `<prefix>base/<id>/` under the same
 * names. The checksum file goes up before its segment and a base's manifest.json last, so what the
 * bucket holds is always complete: a half-shipped segment has no `.gz` yet, a half-shipped base no
 * manifest. A restore on any host fetches the base it needs and the WAL from its start into a fresh
 * folder, and the usual restore (restore.ts) verifies every checksum as it replays.
 *
 * The bucket is the truth for "shipped" (listed each run; nothing kept in memory or on the primary).
 * Retention on the bucket is the bucket's lifecycle rule (docs/production-layout.md).
 */
export interface S3ArchiveOptions extends S3Options {
  /** Key prefix of the archive in the bucket, e.g. `backup/`. */
  prefix: string;
}

const MAX_LIST_PAGES = 1_000;
const clients = new WeakMap<S3ArchiveOptions, ReturnType<typeof lazyClient>>();

/** One SDK client per settings object (loaded on first use, as the uploads' store does). */
function connect(s3: S3ArchiveOptions) {
  let made = clients.get(s3);
  if (!made) {
    made = lazyClient(s3);
    clients.set(s3, made);
  }
  return made();
}
/** `<24 hex>.gz`, `<24 hex>.<8 hex>.backup.gz`, `<8 hex>.history.gz`, `<24 hex>.partial.gz`. */
const WAL_FILE = /^([0-9A-F]{8}(?:[0-9A-F]{16}(?:\.[0-9A-F]{8}\.backup|\.partial)?|\.history))\.gz(\.sha256)?$/;
const BASE_FILES = ['base.tar.gz', 'backup_label', 'manifest.json'] as const;

async function listKeys(s3: S3ArchiveOptions, under: string): Promise<Set<string>> {
  const { sdk, client } = await connect(s3);
  const keys = new Set<string>();
  let token: string | undefined;
  for (let page = 0; page < MAX_LIST_PAGES; page += 1) {
    const answer = await client.send(
      new sdk.ListObjectsV2Command({
        Bucket: s3.bucket,
        Prefix: `${s3.prefix}${under}`,
        ...(token ? { ContinuationToken: token } : {}),
      }),
    );
    for (const o of answer.Contents ?? []) if (o.Key) keys.add(o.Key.slice(s3.prefix.length));
    if (!answer.IsTruncated || !answer.NextContinuationToken) return keys;
    token = answer.NextContinuationToken;
  }
  throw new Error(`more than ${MAX_LIST_PAGES} pages of objects under ${s3.prefix}${under}`);
}

async function upload(s3: S3ArchiveOptions, key: string, file: string): Promise<void> {
  const { sdk, client } = await connect(s3);
  const { size } = await stat(file);
  await client.send(
    new sdk.PutObjectCommand({
      Bucket: s3.bucket,
      Key: `${s3.prefix}${key}`,
      Body: createReadStream(file),
      ContentLength: size,
    }),
  );
}

async function download(s3: S3ArchiveOptions, key: string, file: string): Promise<void> {
  const { sdk, client } = await connect(s3);
  const answer = await client.send(new sdk.GetObjectCommand({ Bucket: s3.bucket, Key: `${s3.prefix}${key}` }));
  if (!answer.Body) throw new Error(`empty object ${key}`);
  const bytes = await answer.Body.transformToByteArray();
  await writeFile(`${file}.tmp`, bytes);
  await rename(`${file}.tmp`, file);
}

export interface ShipResult {
  walShipped: number;
  basesShipped: number;
}

/**
 * Copies every complete segment and base of the folder archive that the bucket lacks, oldest first.
 * `onPending` hears how many segments the bucket still lacks, before and after each upload (the lag
 * gauge), so a run that fails half-way leaves an accurate figure.
 */
export async function shipArchiveToS3(
  layout: ArchiveLayout,
  s3: S3ArchiveOptions,
  onPending: (segments: number) => void = () => undefined,
): Promise<ShipResult> {
  const remote = await listKeys(s3, '');
  const local = (await readdir(layout.walDir)).filter((f) => WAL_FILE.test(f) && f.endsWith('.gz')).sort();
  const missing = local.filter((file) => !remote.has(`wal/${file}`));
  onPending(missing.length);
  let walShipped = 0;
  for (const file of missing) {
    // The folder script publishes the checksum before the segment: a .gz here has its .sha256.
    await upload(s3, `wal/${file}.sha256`, path.join(layout.walDir, `${file}.sha256`));
    await upload(s3, `wal/${file}`, path.join(layout.walDir, file));
    walShipped += 1;
    onPending(missing.length - walShipped);
  }
  let basesShipped = 0;
  for (const base of await listBaseBackups(layout)) {
    if (remote.has(`base/${base.id}/manifest.json`)) continue;
    for (const name of BASE_FILES)
      await upload(s3, `base/${base.id}/${name}`, path.join(layout.baseDir, base.id, name));
    basesShipped += 1;
  }
  return { walShipped, basesShipped };
}

/** Log and segment of a WAL name, timeline ignored (as retention compares them). */
const position = (wal: string) => wal.slice(8, 24);

/**
 * Fills an EMPTY folder archive (`layout`, prepared with prepareArchive) from the bucket: the newest
 * base consistent before `target`, and every segment from its start on (and the timeline histories).
 */
export async function fetchArchiveFromS3(
  s3: S3ArchiveOptions,
  layout: ArchiveLayout,
  target: RestoreTarget,
): Promise<{ base: BaseBackupManifest; segments: number }> {
  const keys = await listKeys(s3, '');
  const manifests: BaseBackupManifest[] = [];
  for (const key of keys) {
    if (!/^base\/[^/]+\/manifest\.json$/.test(key)) continue;
    const file = path.join(layout.root, 'manifest.tmp');
    await download(s3, key, file);
    manifests.push(JSON.parse(await readFile(file, 'utf8')) as BaseBackupManifest);
  }
  manifests.sort((a, b) => a.consistentAt.localeCompare(b.consistentAt));
  const base = chooseBase(manifests, target);
  const folder = path.join(layout.baseDir, base.id);
  if (existsSync(folder)) throw new Error(`${folder} exists: fetch into an empty archive folder`);
  await mkdir(`${folder}.partial`, { recursive: true });
  for (const name of BASE_FILES) await download(s3, `base/${base.id}/${name}`, path.join(`${folder}.partial`, name));
  await rename(`${folder}.partial`, folder);
  const floor = position(base.startWal);
  let segments = 0;
  for (const key of [...keys].sort()) {
    const name = WAL_FILE.exec(key.slice('wal/'.length));
    if (!key.startsWith('wal/') || !name?.[1]) continue;
    if (!name[1].endsWith('.history') && position(name[1]) < floor) continue;
    await download(s3, key, path.join(layout.walDir, key.slice('wal/'.length)));
    if (!key.endsWith('.sha256')) segments += 1;
  }
  return { base, segments };
}

/** S3 settings for the archive: the uploads' S3_* with BACKUP_S3_PREFIX (`backup/`); none when BACKUP_S3=off. */
export function s3ArchiveOf(uploadsS3: S3Options | undefined, env: NodeJS.ProcessEnv): S3ArchiveOptions | undefined {
  if (!uploadsS3 || env.BACKUP_S3?.trim() === 'off') return undefined;
  const prefix = env.BACKUP_S3_PREFIX?.trim() || 'backup/';
  if (!/^[A-Za-z0-9._-]+\/$/.test(prefix)) throw new Error(`BACKUP_S3_PREFIX must look like name/ (got ${prefix})`);
  return { ...uploadsS3, prefix };
}
