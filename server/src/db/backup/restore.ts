import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { type ReconcileReport, reconcile } from '../../modules/ledger/reconcile.ts';
import { createDb } from '../create-db.ts';
import { type EmbeddedPostgres, startEmbeddedPostgres } from '../embedded-postgres.ts';
import { reachableBy } from '../embedded-postgres-reach.ts';
import { type BaseBackupManifest, EMPTY_DIRS, listBaseBackups, sha256File } from './base-backup.ts';
import { markRestored } from './restored-marker.ts';
import { type ArchiveLayout, restoreCommand } from './wal-archive.ts';

const execFileAsync = promisify(execFile);

/**
 * Point-in-time restore into a NEW data folder: the newest base backup consistent before the target,
 * plus the archived WAL replayed up to the target (recovery_target_time) or to the end of the archive
 * ('latest'); then the cluster is promoted, started, and the ledger reconciled on it. The source
 * cluster and archive are only read. The restored folder is a complete DATA_DIR-style folder
 * (`pg/`, `pg-password`), startable with `DATA_DIR=<into> npm start`.
 */

export type RestoreTarget = Date | 'latest';

export class RestoreError extends Error {}

/**
 * Parses `--to`: 'latest' or an ISO-8601 time WITH an explicit offset. A bare "2026-11-27 20:00" would
 * be read in the restoring host's zone, which need not be the primary's: refused rather than guessed.
 */
export function parseRestoreTarget(text: string): RestoreTarget {
  if (text === 'latest') return 'latest';
  if (!/(Z|[+-]\d\d:?\d\d)$/i.test(text.trim())) {
    throw new RestoreError(`--to needs 'latest' or a time with its offset, e.g. 2026-11-27T20:15:00Z (got ${text})`);
  }
  const at = new Date(text);
  if (Number.isNaN(at.getTime())) throw new RestoreError(`--to is not a time: ${text}`);
  return at;
}

export function chooseBase(bases: BaseBackupManifest[], target: RestoreTarget): BaseBackupManifest {
  const usable = target === 'latest' ? bases : bases.filter((b) => Date.parse(b.consistentAt) <= target.getTime());
  const base = usable[usable.length - 1];
  if (!base) {
    const earliest = bases[0]?.consistentAt;
    throw new RestoreError(
      earliest
        ? `no base backup is consistent before ${target === 'latest' ? 'now' : target.toISOString()}; the earliest restorable time is ${earliest}`
        : 'no base backup: run `npm run ops -- backup base` first',
    );
  }
  return base;
}

export interface RestoreOptions {
  layout: ArchiveLayout;
  target: RestoreTarget;
  /** New folder; refused when it already holds a cluster. */
  into: string;
  /** The source DATA_DIR's pg-password (the restored cluster keeps the superuser's password). */
  passwordFile: string;
  database?: string;
  port?: number;
  /** Leave the restored server running (drills inspect it); otherwise it is stopped cleanly. */
  keepRunning?: boolean;
  recoveryTimeoutMs?: number;
  log?: (line: string) => void;
}

export interface RestoreResult {
  base: BaseBackupManifest;
  report: ReconcileReport;
  /** The restored server when keepRunning (stop it yourself). */
  server?: EmbeddedPostgres;
  dataDir: string;
}

/** Unpacks a verified base into `into/pg` with its backup_label and the signal file for recovery or standby. */
export async function unpackBase(
  base: BaseBackupManifest,
  layout: ArchiveLayout,
  into: string,
  signal: 'recovery.signal' | 'standby.signal' = 'recovery.signal',
): Promise<string> {
  const folder = path.join(layout.baseDir, base.id);
  const tarFile = path.join(folder, 'base.tar.gz');
  if ((await sha256File(tarFile)) !== base.tarSha256) {
    throw new RestoreError(`base backup ${base.id} is damaged (checksum mismatch); choose an older time`);
  }
  const pgDir = path.join(into, 'pg');
  await mkdir(pgDir, { recursive: true, mode: 0o700 });
  await execFileAsync('tar', ['-xzf', tarFile, '-C', pgDir]);
  await copyFile(path.join(folder, 'backup_label'), path.join(pgDir, 'backup_label'));
  for (const dir of EMPTY_DIRS) await mkdir(path.join(pgDir, dir), { recursive: true, mode: 0o700 });
  await writeFile(path.join(pgDir, signal), '');
  await chmod(pgDir, 0o700);
  if (process.getuid?.() === 0) await execFileAsync('chown', ['-R', 'postgres:postgres', pgDir]);
  return pgDir;
}

async function waitForPromotion(server: EmbeddedPostgres, timeoutMs: number, logFile: string): Promise<void> {
  const db = createDb(server.url(), { max: 1 });
  const deadline = Date.now() + timeoutMs;
  try {
    for (;;) {
      const inRecovery = await sql<{ r: boolean }>`select pg_is_in_recovery() as r`
        .execute(db)
        .then((res) => res.rows[0]?.r ?? true)
        .catch(() => undefined);
      if (inRecovery === false) return;
      if (inRecovery === undefined || Date.now() > deadline) {
        const tail = (await readFile(logFile, 'utf8').catch(() => '')).trimEnd().split('\n').slice(-8).join('\n');
        throw new RestoreError(
          inRecovery === undefined
            ? `the restored server stopped during recovery:\n${tail}`
            : `recovery did not finish within ${timeoutMs} ms:\n${tail}`,
        );
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  } finally {
    await db.destroy();
  }
}

export async function restore(options: RestoreOptions): Promise<RestoreResult> {
  const log = options.log ?? (() => undefined);
  const into = path.resolve(options.into);
  if (existsSync(path.join(into, 'pg', 'PG_VERSION'))) throw new RestoreError(`${into} already holds a cluster`);
  const base = chooseBase(await listBaseBackups(options.layout), options.target);
  log(`base backup ${base.id} (consistent at ${base.consistentAt}), WAL from ${base.startWal}`);
  await mkdir(into, { recursive: true });
  if (process.getuid?.() === 0) {
    await chmod(into, 0o755);
    const ids = { uid: Number((await execFileAsync('id', ['-u', 'postgres'])).stdout), gid: 0 };
    ids.gid = Number((await execFileAsync('id', ['-g', 'postgres'])).stdout);
    if (!(await reachableBy(ids, into))) throw new RestoreError(`the postgres user cannot reach ${into}`);
  }
  const dataDir = await unpackBase(base, options.layout, into);
  await copyFile(options.passwordFile, path.join(into, 'pg-password'));
  await markRestored(into, {
    target: options.target === 'latest' ? 'latest' : options.target.toISOString(),
    base: base.id,
    at: new Date(),
  });
  const settings: Record<string, string> = {
    ...(base.hotStandbySettings ?? {}),
    // The restored copy must not write into the archive of the cluster it came from.
    archive_mode: 'off',
    restore_command: restoreCommand(options.layout),
    recovery_target_action: 'promote',
    recovery_target_timeline: 'latest',
    ...(options.target === 'latest'
      ? {}
      : { recovery_target_time: options.target.toISOString().replace('T', ' ').replace('Z', '+00') }),
  };
  const server = await startEmbeddedPostgres({
    dir: into,
    settings,
    log,
    ...(options.port === undefined ? {} : { port: options.port }),
    startTimeoutMs: options.recoveryTimeoutMs ?? 120_000,
  });
  try {
    await waitForPromotion(server, options.recoveryTimeoutMs ?? 120_000, path.join(into, 'pg.log'));
    const db = createDb(server.url(options.database ?? 'wallet'), { max: 2 });
    let report: ReconcileReport;
    try {
      report = await reconcile(db);
    } finally {
      await db.destroy();
    }
    if (!options.keepRunning) await server.stop();
    return { base, report, dataDir, ...(options.keepRunning ? { server } : {}) };
  } catch (err) {
    await server.stop();
    throw err;
  }
}
