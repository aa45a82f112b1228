import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { finished } from 'node:stream/promises';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { chainHead } from './chain.ts';

const EXPORT_PAGE_ROWS = 2000;

/**
 * The audit log as JSON lines with each row's chain hashes, then a last line with the chain head
 * (`audit export <file>`, and the S3 anchors: s3-anchor.ts), for a second place (ASVS 16.4.3):
 * someone who rewrites history in the database is caught by `audit verify --against` it.
 */
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
