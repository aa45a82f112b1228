import { mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { ObjectStore } from '../uploads/storage.ts';
import { verifyChain } from './chain.ts';
import { exportChain } from './export-file.ts';

/**
 * The audit chain's head anchored OUTSIDE the database (review 32a, finding 1): the log is exported
 * to S3-compatible storage (the uploads' S3_* settings, keys under `audit/`), each object holding the
 * rows since the previous export and ending with the head line. Objects are written once and never
 * overwritten (the store skips a key that exists; give the bucket object lock in production), so
 * someone who later rewrites and re-seals the chain in the database is caught by
 * `audit verify --against` one of them. The exports are recorded in audit_anchors (migration 0093):
 * the schedule lives in the database, and any instance runs the next export once it is due.
 */
export const AUDIT_EXPORT_INTERVAL_MS = 3_600_000;
const SCHEDULE_CHECK_MS = 60_000;
// pg_try_advisory_xact_lock key: one export at a time over every instance.
const ANCHOR_LOCK = 0x617564_7478; // 'audtx'

export interface AnchorResult {
  objectKey: string | null;
  fromSeq: string;
  toSeq: string;
  rows: number;
}

const pad = (seq: string) => seq.padStart(20, '0');

/** One export now (the rows since the last anchor); null objectKey when nothing new was logged. */
export async function exportToStore(db: Kysely<Database>, store: ObjectStore, _now: Date): Promise<AnchorResult> {
  const { rows: last } = await sql<{ to_seq: string }>`
    select to_seq from audit_anchors order by to_seq desc limit 1`.execute(db);
  const fromSeq = last[0]?.to_seq ?? '0';
  const dir = await mkdtemp(path.join(os.tmpdir(), 'cw-audit-anchor-'));
  try {
    const file = path.join(dir, 'export.jsonl');
    const written = await exportChain(db, file, fromSeq);
    if (written.head.seq === fromSeq && last[0]) return { objectKey: null, fromSeq, toSeq: fromSeq, rows: 0 };
    const objectKey = `audit/${pad(fromSeq)}-${pad(written.head.seq)}-${written.head.hash}.jsonl`;
    const { size } = await stat(file);
    await store.put(objectKey, { file, bytes: size }, 'application/x-ndjson');
    // Recorded through the owner's function (migration 0107): it checks the link and hash against the
    // chain and stamps the database's time; the app role cannot write audit_anchors itself.
    await sql`select audit_record_anchor(${fromSeq}, ${written.head.seq}, decode(${written.head.hash}, 'hex'), ${objectKey})`.execute(
      db,
    );
    return { objectKey, fromSeq, toSeq: written.head.seq, rows: written.rows };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Runs an export when the last one is older than `intervalMs` (by the database's records), on one
 * instance at a time (an advisory lock held by the transaction that checks and records it).
 */
export async function exportIfDue(
  db: Kysely<Database>,
  store: ObjectStore,
  now: Date,
  intervalMs: number,
): Promise<AnchorResult | null> {
  return db.transaction().execute(async (trx) => {
    const { rows: locked } = await sql<{ ok: boolean }>`
      select pg_try_advisory_xact_lock(${ANCHOR_LOCK}) as ok`.execute(trx);
    if (!locked[0]?.ok) return null;
    // "Due" by the database's clock, the one that stamped exported_at (migration 0107).
    const { rows: recent } = await sql<{ n: string }>`
      select count(*) as n from audit_anchors
      where exported_at > now() - make_interval(secs => ${intervalMs / 1000})`.execute(trx);
    if (Number(recent[0]?.n ?? 0) > 0) return null;
    return exportToStore(trx, store, now);
  });
}

/**
 * How long since the newest export (by the database's clock), in ms; null when none was ever recorded.
 * The schedule warns past STALE_AFTER_INTERVALS intervals (review s7, finding 3): exports that stopped,
 * whatever the cause (a bucket refusing, a stuck lock), are otherwise silent.
 */
export async function exportAgeMs(db: Kysely<Database>): Promise<number | null> {
  const { rows } = await sql<{ age_ms: string | null }>`
    select (extract(epoch from now() - max(exported_at)) * 1000)::bigint::text as age_ms from audit_anchors`.execute(
    db,
  );
  const age = rows[0]?.age_ms;
  return age === null || age === undefined ? null : Number(age);
}
export const STALE_AFTER_INTERVALS = 2;

export function startAuditAnchorSchedule(options: {
  db: Kysely<Database>;
  store: ObjectStore;
  now: () => Date;
  intervalMs: number;
  log: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };
}): { name: string; close: () => Promise<void> } {
  let running: Promise<unknown> = Promise.resolve();
  const startedAt = Date.now();
  const staleMs = STALE_AFTER_INTERVALS * options.intervalMs;
  const warnIfStale = async () => {
    const age = await exportAgeMs(options.db);
    // None ever recorded: stale once this instance has tried for as long.
    const stale = age === null ? Date.now() - startedAt > staleMs : age > staleMs;
    if (stale) options.log.warn({ lastExportAgeMs: age, staleAfterMs: staleMs }, 'audit export to storage STALE');
  };
  const tick = () => {
    running = exportIfDue(options.db, options.store, options.now(), options.intervalMs)
      .then(
        async (r) => {
          if (!r) return;
          if (r.objectKey) options.log.info({ key: r.objectKey, rows: r.rows }, 'audit log anchored to storage');
          // With each export, a full walk (the console's verify starts from a checkpoint: checkpoint.ts).
          const state = await verifyChain(options.db);
          if (!state.ok) options.log.warn({ brokenAt: state.brokenAt }, 'audit chain BROKEN (scheduled full verify)');
        },
        (err) => options.log.warn({ err }, 'audit export to storage failed (retried at the next check)'),
      )
      .then(warnIfStale)
      .catch((err) => options.log.warn({ err }, 'audit export age check failed'));
  };
  const timer = setInterval(tick, Math.min(SCHEDULE_CHECK_MS, options.intervalMs));
  timer.unref();
  tick();
  return {
    name: 'audit anchor export',
    close: async () => {
      clearInterval(timer);
      await running;
    },
  };
}

/** AUDIT_EXPORT_INTERVAL_MS: milliseconds, or `off`; one hour by default. */
export function auditExportIntervalFromEnv(env: NodeJS.ProcessEnv): number | null {
  const raw = env.AUDIT_EXPORT_INTERVAL_MS?.trim();
  if (!raw) return AUDIT_EXPORT_INTERVAL_MS;
  if (raw === 'off') return null;
  const ms = Number(raw);
  if (!Number.isInteger(ms) || ms < 1_000) throw new Error('AUDIT_EXPORT_INTERVAL_MS: an integer >= 1000, or off');
  return ms;
}
