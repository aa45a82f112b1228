import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { ObjectStore } from '../uploads/storage.ts';
import { chainStateLines, verifyChain } from './chain.ts';
import { exportChain } from './export-file.ts';
import { exportToStore } from './s3-anchor.ts';
import { verifyAgainstExport } from './verify-against.ts';

export { exportChain } from './export-file.ts';

export const auditUsage =
  'usage: npm run ops -- audit verify [--against <export.jsonl>] | export <file.jsonl> | export --s3';

/**
 * `npm run ops -- audit verify`: walks the hash chain, names the first broken link (exit 1); with
 * `--against <export.jsonl>`, also checks an earlier export is still in it (verify-against.ts).
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
