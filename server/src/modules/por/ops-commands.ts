import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { liabilityCheck } from './liabilities.ts';
import { listSnapshots, publishSnapshot } from './snapshot.ts';

export const porUsage = 'usage: npm run ops -- por publish | list';

/** `npm run ops -- por publish`: a snapshot now (besides the schedule); `por list`: the roots kept. */
export async function runPorCommand(
  db: Kysely<Database>,
  args: readonly string[],
  out: (line: string) => void,
  now: () => Date = () => new Date(),
): Promise<number> {
  const [sub] = args;
  if (sub === 'publish') {
    const s = await publishSnapshot(db, now());
    out(`published ${s.id} at ${s.createdAt.toISOString()}: ${s.leafCount} users, root ${s.rootHash}`);
    for (const [i, a] of s.assets.entries()) out(`  ${a}\t${s.rootSums[i]}`);
    return 0;
  }
  if (sub === 'list') {
    for (const s of await listSnapshots(db, 50)) {
      out(`${s.createdAt.toISOString()}\t${s.id}\t${s.leafCount} users\t${s.rootHash}`);
    }
    return 0;
  }
  out(porUsage);
  return 2;
}

/** For `ops reconcile`: the latest root's totals beside the ledger's liabilities now. */
export async function porReconcileLines(db: Kysely<Database>): Promise<string[]> {
  const check = await liabilityCheck(db);
  if (!check) return ['proof of liabilities: none published yet'];
  return [
    `proof of liabilities: latest root ${check.rootHash.slice(0, 16)}… of ${check.createdAt.toISOString()}`,
    ...check.rows.map((r) => `  ${r.asset}\troot ${r.root}\tledger now ${r.ledger}\tmoved since ${r.ledger - r.root}`),
  ];
}
