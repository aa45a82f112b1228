import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { finished } from 'node:stream/promises';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { ObjectStore } from '../uploads/storage.ts';
import { chainHead, chainStateLines, verifyChain } from './chain.ts';
import { exportToStore } from './s3-anchor.ts';
import { verifyAgainstExport } from './verify-against.ts';

export const auditUsage =
  'usage: npm run ops -- audit verify [--against <export.jsonl>] | export <file.jsonl> | export --s3';
const EXPORT_PAGE_ROWS = 2000;

/**
 * `npm run ops -- audit verify`: walks the hash chain, names the first broken link (exit 1).
 * `audit export <file>`: the log as JSON lines with each row's chain hashes, then a last line with
 * the chain head, for a second place (ASVS 16.4.3): someone who rewrites history in the database is
 * caught by comparing a later export or verify with it.
 */
export async function runAuditCommand(
  db: Kysely<Database>,
  args: readonly string[],
  out: (line: string) => void,
  deps: { store?: () => ObjectStore | null; now?: () => Date } = {},
): Promise<number> {
  const [sub, file, againstFile] = args;
  if (sub === 'verify' && (file === undefined || (file === '--against' && againstFile))) {
    const state = await verifyChain(db);
    for (const line of chainStateLines(state)) out(line);
    if (!state.ok || !againstFile) return state.ok ? 0 : 1;
    const against = await verifyAgainstExport(db, againstFile);
    const head = against.head ? ` (its head #${against.head.seq} ${against.head.hash})` : '';
    out(`audit export ${againstFile}: ${against.rows} rows${head}`);
    out(against.ok ? 'audit export: matches the database' : `audit export: DIFFERS: ${against.mismatch}`);
    return against.ok ? 0 : 1;
  }
  if (sub === 'export' && file === '--s3') {
    const store = deps.store?.() ?? null;
    if (!store) {
      out('audit export --s3: no S3 storage configured (S3_ENDPOINT, S3_BUCKET, ... as for uploads)');
      return 2;
    }
    const anchored = await exportToStore(db, store, (deps.now ?? (() => new Date()))());
    out(
      anchored.objectKey
        ? `audit export: rows #${anchored.fromSeq}..#${anchored.toSeq} (${anchored.rows}) to ${anchored.objectKey}`
        : `audit export: nothing new since #${anchored.toSeq}`,
    );
    return 0;
  }
  if (sub === 'export' && file) {
    const written = await exportChain(db, file);
    out(`audit export: ${written.rows} rows to ${file}, head #${written.head.seq} ${written.head.hash}`);
    return 0;
  }
  out(auditUsage);
  return 2;
}

/** Rows after `afterSeq` (all by default) up to the head read at the start, then the head line. */
export async function exportChain(
  db: Kysely<Database>,
  file: string,
  afterSeq = '0',
): Promise<{ rows: number; head: { seq: string; hash: string } }> {
  const head = await chainHead(db);
  const stream = createWriteStream(file, { flags: 'wx', mode: 0o600 });
  await once(stream, 'open'); // rejects when the file exists ('wx': an export never overwrites one)
  let rows = 0;
  let after = afterSeq;
  try {
    for (;;) {
      const page = await sql<Record<string, unknown> & { chain_seq: string }>`
        select chain_seq, id, occurred_at, event, user_id, ip, details,
          encode(prev_hash, 'hex') as prev_hash, encode(hash, 'hex') as hash
        from audit_events where chain_seq > ${after} and chain_seq <= ${head.seq}
        order by chain_seq limit ${EXPORT_PAGE_ROWS}`.execute(db);
      for (const row of page.rows) {
        if (!stream.write(`${JSON.stringify(row)}\n`)) await once(stream, 'drain');
        after = row.chain_seq;
        rows += 1;
      }
      if (page.rows.length < EXPORT_PAGE_ROWS) break;
    }
    const headLine = { head: { seq: head.seq, hash: head.hash.toString('hex') } };
    stream.write(`${JSON.stringify(headLine)}\n`);
  } finally {
    stream.end();
    await finished(stream);
  }
  return { rows, head: { seq: head.seq, hash: head.hash.toString('hex') } };
}
