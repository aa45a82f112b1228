import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { LIABILITY_KINDS, listSnapshots } from './snapshot.ts';

/** The latest snapshot's totals per asset beside the ledger's liability accounts now. */
export async function liabilityCheck(db: Kysely<Database>) {
  const [latest] = await listSnapshots(db, 1);
  if (!latest) return null;
  const { rows } = await sql<{ asset: string; total: string }>`
    select asset, sum(balance)::text as total from ledger_accounts
    where kind in (${sql.join(LIABILITY_KINDS.map((k) => sql.lit(k)))}) group by asset`.execute(db);
  const assets = [...new Set([...latest.assets, ...rows.map((r) => r.asset)])].sort();
  return {
    rootHash: latest.rootHash,
    createdAt: latest.createdAt,
    rows: assets.map((asset) => {
      const i = latest.assets.indexOf(asset);
      return {
        asset,
        root: BigInt(i >= 0 ? (latest.rootSums[i] ?? '0') : '0'),
        ledger: BigInt(rows.find((r) => r.asset === asset)?.total ?? '0'),
      };
    }),
  };
}
