import { createHash } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { type ContentRow, canonicalContent, contentColumns } from './canonical.ts';

/**
 * The audit log's hash chain (migration 0085): every row's hash is SHA-256(prev_hash ‖ content), the
 * content being the row's canonical form (canonical.ts, computed here: not by the database's
 * audit_event_content, which a schema owner could replace). The verifier recomputes each hash here
 * (not trusting the stored one), checks that each row names its predecessor's hash and
 * that chain_seq has no gap, and that the head row agrees with the last link (rows deleted at the end).
 */
export const GENESIS_HASH = Buffer.alloc(32);
const PAGE_ROWS = 5000;

export type BrokenLink = {
  chainSeq: string;
  /** The audit_events id at that place; null when the row is missing. */
  id: string | null;
  reason: 'hash_mismatch' | 'prev_hash_mismatch' | 'missing_row' | 'head_mismatch' | 'unlinked_row';
};

export interface ChainState {
  ok: boolean;
  rows: number;
  head: { seq: string; hash: string };
  brokenAt: BrokenLink | null;
}

interface LinkRow extends ContentRow {
  prev_hash: Buffer;
  hash: Buffer;
}

export async function chainHead(db: Kysely<Database>): Promise<{ seq: string; hash: Buffer }> {
  const { rows } = await sql<{
    seq: string;
    hash: Buffer;
  }>`select seq, hash from audit_chain_head where id = 1`.execute(db);
  const head = rows[0];
  if (!head) throw new Error('audit_chain_head is missing (migration 0085)');
  return head;
}

/** Walks the whole chain in pages of `pageRows`; stops at the first broken link. */
export async function verifyChain(
  db: Kysely<Database>,
  pageRows = PAGE_ROWS,
  /** A link verified before (checkpoint.ts): the walk starts after it; its rows are counted. */
  from: { seq: string; hash: Buffer } | null = null,
): Promise<ChainState> {
  const head = await chainHead(db);
  let prev: Buffer = from?.hash ?? GENESIS_HASH;
  let expectedSeq = BigInt(from?.seq ?? '0') + 1n;
  let rows = Number(from?.seq ?? 0);
  const state = (brokenAt: BrokenLink | null): ChainState => ({
    ok: brokenAt === null,
    rows,
    head: { seq: head.seq, hash: head.hash.toString('hex') },
    brokenAt,
  });
  for (;;) {
    const page = await sql<LinkRow>`
      select ${contentColumns}, e.prev_hash, e.hash
      from audit_events e
      where e.chain_seq >= ${String(expectedSeq)} and e.chain_seq <= ${head.seq}
      order by e.chain_seq
      limit ${pageRows}`.execute(db);
    for (const row of page.rows) {
      if (BigInt(row.chain_seq) !== expectedSeq)
        return state({ chainSeq: String(expectedSeq), id: null, reason: 'missing_row' });
      if (!row.prev_hash.equals(prev))
        return state({ chainSeq: row.chain_seq, id: row.id, reason: 'prev_hash_mismatch' });
      const computed = createHash('sha256').update(prev).update(canonicalContent(row)).digest();
      if (!computed.equals(row.hash)) return state({ chainSeq: row.chain_seq, id: row.id, reason: 'hash_mismatch' });
      prev = row.hash;
      expectedSeq += 1n;
      rows += 1;
    }
    if (page.rows.length < pageRows) break;
  }
  // Every committed row is linked at its commit; one without a link was inserted with the triggers off.
  const unlinked = await sql<{ id: string }>`
    select id from audit_events where chain_seq is null order by id limit 1`.execute(db);
  const stray = unlinked.rows[0];
  if (stray) return state({ chainSeq: String(expectedSeq), id: stray.id, reason: 'unlinked_row' });
  if (expectedSeq - 1n !== BigInt(head.seq))
    return state({ chainSeq: String(expectedSeq), id: null, reason: 'missing_row' });
  if (!prev.equals(head.hash)) return state({ chainSeq: head.seq, id: null, reason: 'head_mismatch' });
  return state(null);
}

export function chainStateLines(state: ChainState): string[] {
  const lines = [`audit chain: ${state.rows} rows, head #${state.head.seq} ${state.head.hash}`];
  if (state.brokenAt === null) lines.push('audit chain: OK');
  else {
    const b = state.brokenAt;
    lines.push(`audit chain: BROKEN at link #${b.chainSeq}${b.id ? ` (audit_events id ${b.id})` : ''}: ${b.reason}`);
  }
  return lines;
}
