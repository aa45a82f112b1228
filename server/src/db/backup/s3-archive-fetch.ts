import { existsSync } from 'node:fs';
import { mkdir, readFile, rename } from 'node:fs/promises';
import path from 'node:path';
import type { BaseBackupManifest } from './base-backup.ts';
import { chooseBase, type RestoreTarget } from './restore.ts';
import {
  BASE_FILES,
  BASE_ID,
  download,
  listKeys,
  MANIFEST_KEY,
  MAX_MANIFEST_BYTES,
  type RemoteObject,
  type S3ArchiveOptions,
  UnverifiedObject,
  WAL_FILE,
} from './s3-archive-objects.ts';
import type { ArchiveLayout } from './wal-archive.ts';

/** The restore side of the S3 archive (s3-archive.ts ships): a verified base and its WAL from the bucket. */

/** Log and segment of a WAL name, timeline ignored (as retention compares them). */
const position = (wal: string) => wal.slice(8, 24);

/**
 * The bucket's base manifests, each verified (MAC, size, id) before it is parsed or names a folder. One
 * that does not verify (shipped before MACs existed, a stray object, another installation's) is skipped
 * with a warning naming it (review s8b C): it must not make every restore impossible. Other errors
 * (the network) still abort, so a transient failure never silently picks an older base.
 */
async function fetchManifests(
  s3: S3ArchiveOptions,
  layout: ArchiveLayout,
  keys: Map<string, RemoteObject>,
  warn: (message: string) => void,
): Promise<BaseBackupManifest[]> {
  const manifests: BaseBackupManifest[] = [];
  for (const [key, object] of keys) {
    if (!key.startsWith('base/') || !key.endsWith('/manifest.json')) continue;
    try {
      manifests.push(await fetchManifest(s3, layout, key, object));
    } catch (err) {
      if (!(err instanceof UnverifiedObject)) throw err;
      warn(`skipped ${err.message}`);
    }
  }
  return manifests.sort((a, b) => a.consistentAt.localeCompare(b.consistentAt));
}

async function fetchManifest(
  s3: S3ArchiveOptions,
  layout: ArchiveLayout,
  key: string,
  object: RemoteObject,
): Promise<BaseBackupManifest> {
  const folder = MANIFEST_KEY.exec(key)?.[1];
  if (!folder) throw new UnverifiedObject(`bucket object ${key}: not a base manifest name this installation writes`);
  if (object.size > MAX_MANIFEST_BYTES)
    throw new UnverifiedObject(`bucket object ${key}: ${object.size} bytes, too big`);
  const file = path.join(layout.root, 'manifest.tmp');
  await download(s3, key, file);
  const manifest = JSON.parse(await readFile(file, 'utf8')) as BaseBackupManifest;
  if (typeof manifest.id !== 'string' || !BASE_ID.test(manifest.id) || manifest.id !== folder)
    throw new UnverifiedObject(`bucket object ${key}: manifest id ${JSON.stringify(manifest.id)} is not ${folder}`);
  return manifest;
}

/**
 * Whether a WAL object is one a restore from `base` can use: history files (the timeline chain), and
 * segments from the base's start on, on its timeline or a later one. Only those must verify.
 */
function usedFrom(base: BaseBackupManifest, name: string): boolean {
  if (name.endsWith('.history')) return true;
  return name.slice(0, 8) >= base.startWal.slice(0, 8) && position(name) >= position(base.startWal);
}

/**
 * Fills an EMPTY folder archive (`layout`, prepared with prepareArchive) from the bucket: the newest
 * verified base consistent before `target`, and every segment from its start on (and the timeline
 * histories). Every object's MAC is checked before it is written into the folder (download); a segment
 * that does not verify aborts the restore, a history file that does not verify is skipped with a
 * warning (PostgreSQL then does not follow that timeline), as is a manifest (fetchManifests).
 */
export async function fetchArchiveFromS3(
  s3: S3ArchiveOptions,
  layout: ArchiveLayout,
  target: RestoreTarget,
  warn: (message: string) => void = () => undefined,
): Promise<{ base: BaseBackupManifest; segments: number }> {
  const keys = await listKeys(s3, '');
  const base = chooseBase(await fetchManifests(s3, layout, keys, warn), target);
  const folder = path.join(layout.baseDir, base.id);
  if (existsSync(folder)) throw new Error(`${folder} exists: fetch into an empty archive folder`);
  await mkdir(`${folder}.partial`, { recursive: true });
  for (const name of BASE_FILES) await download(s3, `base/${base.id}/${name}`, path.join(`${folder}.partial`, name));
  await rename(`${folder}.partial`, folder);
  let segments = 0;
  for (const key of [...keys.keys()].sort()) {
    const name = WAL_FILE.exec(key.slice('wal/'.length));
    if (!key.startsWith('wal/') || !name?.[1] || !usedFrom(base, name[1])) continue;
    try {
      await download(s3, key, path.join(layout.walDir, key.slice('wal/'.length)));
    } catch (err) {
      if (!(err instanceof UnverifiedObject) || !name[1].endsWith('.history')) throw err;
      warn(`skipped ${err.message}`);
      continue;
    }
    if (!key.endsWith('.sha256')) segments += 1;
  }
  return { base, segments };
}
