import { existsSync } from 'node:fs';
import { readdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { listBaseBackups } from './base-backup.ts';
import { sameAsLocal, sameBaseAsLocal } from './s3-archive-compare.ts';
import {
  BASE_FILES,
  connect,
  listKeys,
  type RemoteObject,
  type S3ArchiveOptions,
  upload,
  WAL_FILE,
} from './s3-archive-objects.ts';
import { claimPrefix } from './s3-archive-owner.ts';
import type { ArchiveLayout } from './wal-archive.ts';

export {
  BASE_FILES,
  BASE_ID,
  download,
  listKeys,
  MANIFEST_KEY,
  MAX_MANIFEST_BYTES,
  type RemoteObject,
  type S3ArchiveOptions,
  signObject,
  UnverifiedObject,
  WAL_FILE,
} from './s3-archive-objects.ts';
export { s3ArchiveOf } from './s3-archive-settings.ts';

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

/** Local file: everything up to this WAL name is in the bucket (retention reads it, base-backup.ts). */
export const SHIPPED_MARKER = 's3-shipped';

export interface ShipResult {
  walShipped: number;
  basesShipped: number;
}

const baseMarker = (layout: ArchiveLayout, id: string) => path.join(layout.baseDir, id, SHIPPED_MARKER);

/** The name the `s3-shipped` marker holds ('' when there is none yet). */
async function shippedMarker(layout: ArchiveLayout): Promise<string> {
  return (await readFile(path.join(layout.root, SHIPPED_MARKER), 'utf8').catch(() => '')).trim();
}

/** Everything up to this local WAL name is in the bucket: local retention deletes no later segment. */
async function markShipped(layout: ArchiveLayout, local: string[], unshipped: Set<string>): Promise<void> {
  const first = local.findIndex((f) => unshipped.has(f));
  const upTo = first === -1 ? local.at(-1) : local[first - 1];
  const marker = path.join(layout.root, SHIPPED_MARKER);
  await writeFile(`${marker}.tmp`, `${upTo?.replace(/\.gz$/, '') ?? ''}\n`);
  await rename(`${marker}.tmp`, marker);
}

/** Copies every local base the bucket lacks; one whose name it holds with other content is a conflict. */
async function shipBases(
  layout: ArchiveLayout,
  s3: S3ArchiveOptions,
  remote: Map<string, RemoteObject>,
): Promise<{ basesShipped: number; baseConflicts: string[] }> {
  let basesShipped = 0;
  const baseConflicts: string[] = [];
  for (const base of await listBaseBackups(layout)) {
    if (remote.has(`base/${base.id}/manifest.json`)) {
      // Checked like a segment (review s8b D): a planted manifest under the next (predictable) id must
      // not make the run skip that base and report success.
      // A confirmed base is marked in its folder: its tar is hashed once, not every run.
      if (existsSync(baseMarker(layout, base.id))) continue;
      if (await sameBaseAsLocal(s3, layout, remote, base.id)) await writeFile(baseMarker(layout, base.id), '');
      else baseConflicts.push(base.id);
      continue;
    }
    for (const name of BASE_FILES)
      await upload(s3, `base/${base.id}/${name}`, path.join(layout.baseDir, base.id, name));
    await writeFile(baseMarker(layout, base.id), '');
    basesShipped += 1;
  }
  return { basesShipped, baseConflicts };
}

/**
 * Copies every complete segment and base of the folder archive that the bucket lacks, oldest first.
 * `onPending` hears how many segments the bucket still lacks, before and after each upload (the lag
 * gauge), so a run that fails half-way leaves an accurate figure. A segment whose name the bucket holds
 * with other content is a conflict: never overwritten, counted as pending, and the run fails naming it.
 */
export async function shipArchiveToS3(
  layout: ArchiveLayout,
  s3: S3ArchiveOptions,
  onPending: (segments: number) => void = () => undefined,
): Promise<ShipResult> {
  const local = (await readdir(layout.walDir)).filter((f) => WAL_FILE.test(f) && f.endsWith('.gz')).sort();
  // Only the keys from the oldest local segment on (review s8 finding 8): the bucket keeps far more WAL
  // than the folder, and listing all of it every 30 s grows without end. `wal/<name>` sorts before
  // `wal/<name>.gz`, so StartAfter it keeps that segment in the listing.
  const oldest = local[0]?.replace(/\.gz$/, '');
  const remote = new Map([
    ...(await listKeys(s3, 'wal/', oldest ? `wal/${oldest}` : undefined)),
    ...(await listKeys(s3, 'base/')),
  ]);
  await claimPrefix(
    s3,
    await connect(s3),
    [...remote.keys()].filter((k) => k.startsWith('wal/') && k.endsWith('.sha256')),
  );
  const missing: string[] = [];
  const conflicts: string[] = [];
  const confirmedUpTo = await shippedMarker(layout);
  for (const file of local) {
    if (!remote.has(`wal/${file}`)) missing.push(file);
    else if (!(await sameAsLocal(s3, layout, remote, file, confirmedUpTo))) conflicts.push(file);
  }
  const unshipped = new Set([...missing, ...conflicts]);
  onPending(unshipped.size);
  let walShipped = 0;
  try {
    for (const file of missing) {
      // The folder script publishes the checksum before the segment: a .gz here has its .sha256.
      await upload(s3, `wal/${file}.sha256`, path.join(layout.walDir, `${file}.sha256`));
      await upload(s3, `wal/${file}`, path.join(layout.walDir, file));
      walShipped += 1;
      unshipped.delete(file);
      onPending(unshipped.size);
    }
  } finally {
    await markShipped(layout, local, unshipped);
  }
  const { basesShipped, baseConflicts } = await shipBases(layout, s3, remote);
  if (baseConflicts.length > 0)
    throw new Error(
      `base ${baseConflicts[0]} (of ${baseConflicts.length} conflicting) differs in the bucket from the local one under the same name: not shipped; another cluster on prefix ${s3.prefix}, or tampering`,
    );
  if (conflicts.length > 0)
    throw new Error(
      `segment ${conflicts[0]} (of ${conflicts.length} conflicting) differs in the bucket from the local one under the same name: not shipped; another cluster on prefix ${s3.prefix}, or tampering`,
    );
  return { walShipped, basesShipped };
}
