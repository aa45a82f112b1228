import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';

/**
 * `audit verify --against <export.jsonl>` (review 32a, finding 1): the chain alone cannot catch a
 * rewrite by someone who may also re-seal it (the schema owner, a superuser). An earlier export, kept
 * outside the database (a file, the S3 anchor), can: every row it holds must still be in the database
 * with the same content and the same hashes, and its head (seq, hash) must still be a link of the chain.
 */
const PAGE_ROWS = 2000;

interface ExportedRow {
  chain_seq: string;
  id: string;
  event: string;
  user_id: string | null;
  ip: string | null;
  details: unknown;
  prev_hash: string;
  hash: string;
}

export interface AgainstResult {
  ok: boolean;
  rows: number;
  head: { seq: string; hash: string } | null;
  /** The first difference, in words; null when the export matches. */
  mismatch: string | null;
}

interface DbRow {
  chain_seq: string;
  id: string;
  event: string;
  user_id: string | null;
  ip: string | null;
  details: unknown;
  prev_hash: string;
  hash: string;
}

async function dbRows(db: Kysely<Database>, seqs: readonly string[]): Promise<Map<string, DbRow>> {
  const { rows } = await sql<DbRow>`
    select chain_seq, id, event, user_id::text as user_id, ip, details,
      encode(prev_hash, 'hex') as prev_hash, encode(hash, 'hex') as hash
    from audit_events where chain_seq = any(${seqs}::bigint[])`.execute(db);
  return new Map(rows.map((r) => [String(r.chain_seq), r]));
}

/** jsonb gives keys in its own order; compare values, not text. */
function sameJson(a: unknown, b: unknown): boolean {
  const norm = (v: unknown): unknown =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.entries(v as Record<string, unknown>)
            .sort(([x], [y]) => (x < y ? -1 : 1))
            .map(([k, x]) => [k, norm(x)]),
        )
      : Array.isArray(v)
        ? v.map(norm)
        : v;
  return JSON.stringify(norm(a)) === JSON.stringify(norm(b));
}

function rowMismatch(exported: ExportedRow, found: DbRow | undefined): string | null {
  const where = `row #${exported.chain_seq}`;
  if (!found) return `${where} (audit_events id ${exported.id}) is gone from the database`;
  if (found.hash !== exported.hash || found.prev_hash !== exported.prev_hash) return `${where}: its hashes changed`;
  const same =
    String(found.id) === String(exported.id) &&
    found.event === exported.event &&
    found.user_id === exported.user_id &&
    found.ip === exported.ip &&
    sameJson(found.details, exported.details);
  return same ? null : `${where}: its content changed`;
}

async function checkPage(db: Kysely<Database>, page: ExportedRow[]): Promise<string | null> {
  const found = await dbRows(
    db,
    page.map((r) => r.chain_seq),
  );
  for (const row of page) {
    const mismatch = rowMismatch(row, found.get(String(row.chain_seq)));
    if (mismatch) return mismatch;
  }
  return null;
}

export async function verifyAgainstExport(db: Kysely<Database>, file: string): Promise<AgainstResult> {
  const lines = createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Number.POSITIVE_INFINITY });
  let rows = 0;
  let head: { seq: string; hash: string } | null = null;
  let page: ExportedRow[] = [];
  const result = (mismatch: string | null): AgainstResult => ({ ok: mismatch === null, rows, head, mismatch });
  for await (const line of lines) {
    if (line.trim() === '') continue;
    const parsed = JSON.parse(line) as ExportedRow | { head: { seq: string; hash: string } };
    if ('head' in parsed) {
      head = parsed.head;
      continue;
    }
    if (head) return result('the export has rows after its head line: not an export file');
    page.push(parsed);
    rows += 1;
    if (page.length >= PAGE_ROWS) {
      const mismatch = await checkPage(db, page);
      if (mismatch) return result(mismatch);
      page = [];
    }
  }
  const mismatch = page.length > 0 ? await checkPage(db, page) : null;
  if (mismatch) return result(mismatch);
  if (!head) return result('the export has no head line (cut short?)');
  if (head.seq === '0') return result(null);
  const { rows: at } = await sql<{ hash: string }>`
    select encode(hash, 'hex') as hash from audit_events where chain_seq = ${head.seq}`.execute(db);
  if (at[0]?.hash !== head.hash) return result(`the exported head #${head.seq} is no longer a link of the chain`);
  return result(null);
}
