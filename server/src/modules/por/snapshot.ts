import { randomBytes } from 'node:crypto';
import { buildLevels, type InclusionProof, type LeafData, leafNode, proofPath } from '@cw/shared-state/por';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { NotFoundError } from '../../errors/app-error.ts';
import { assert } from '../ledger/model.ts';

/** The accounts that are the platform's debt to its users. */
export const LIABILITY_KINDS = ['user_available', 'user_locked', 'user_rewards'] as const;
/** Leaves written per statement. */
const INSERT_BATCH = 500;

export interface Snapshot {
  id: string;
  createdAt: Date;
  assets: string[];
  rootHash: string;
  rootSums: string[];
  leafCount: number;
}

interface Balances {
  assets: string[];
  users: Map<string, bigint[]>;
  totals: bigint[];
}

/**
 * Every user's liability balances and the per-asset totals, read in ONE repeatable-read snapshot:
 * transfers committing meanwhile are either wholly in it or wholly out, so the totals are the
 * ledger's at one point in time.
 */
async function readBalances(db: Kysely<Database>): Promise<Balances> {
  return db
    .transaction()
    .setIsolationLevel('repeatable read')
    .setAccessMode('read only')
    .execute(async (trx) => {
      const { rows } = await sql<{ user_id: string; asset: string; balance: string }>`
        select user_id, asset, sum(balance)::text as balance from ledger_accounts
        where kind in (${sql.join(LIABILITY_KINDS.map((k) => sql.lit(k)))}) and user_id is not null
        group by user_id, asset having sum(balance) <> 0`.execute(trx);
      const { rows: totalRows } = await sql<{ asset: string; total: string }>`
        select asset, sum(balance)::text as total from ledger_accounts
        where kind in (${sql.join(LIABILITY_KINDS.map((k) => sql.lit(k)))}) group by asset`.execute(trx);
      const assets = [...new Set(totalRows.map((r) => r.asset))].sort();
      const users = new Map<string, bigint[]>();
      for (const r of rows) {
        const list = users.get(r.user_id) ?? assets.map(() => 0n);
        list[assets.indexOf(r.asset)] = BigInt(r.balance);
        users.set(r.user_id, list);
      }
      const totals = assets.map((a) => BigInt(totalRows.find((r) => r.asset === a)?.total ?? '0'));
      return { assets, users, totals };
    });
}

/**
 * Builds and stores a snapshot: leaves in random order (by their random salt), the tree, the root.
 * Asserts the root's sums equal the ledger's liability totals of the same instant, and that no
 * balance is negative (a user account never goes below zero; a tree with a negative leaf would hide
 * debt). Returns the published root.
 */
export async function publishSnapshot(db: Kysely<Database>, now: Date): Promise<Snapshot> {
  const { assets, users, totals } = await readBalances(db);
  const leaves: LeafData[] = [...users.entries()]
    .map(([userId, balances]) => {
      for (const b of balances) assert(b >= 0n, 'a user liability is never negative');
      return { userId, salt: randomBytes(32).toString('hex'), balances: balances.map(String) };
    })
    .sort((a, b) => (a.salt < b.salt ? -1 : 1));
  const levels = buildLevels(leaves.map(leafNode), assets.length);
  const root = levels.at(-1)?.[0];
  assert(root !== undefined, 'a tree has a root');
  assert(
    root.sums.every((s, i) => s === totals[i]),
    'the root sums equal the ledger liabilities',
  );
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto('por_snapshots')
      .values({
        created_at: now,
        assets,
        root_hash: root.hash,
        root_sums: root.sums.map(String),
        leaf_count: leaves.length,
      })
      .returning(['id'])
      .executeTakeFirstOrThrow();
    for (let i = 0; i < leaves.length; i += INSERT_BATCH) {
      const batch = leaves.slice(i, i + INSERT_BATCH).map((l, k) => ({
        snapshot_id: row.id,
        position: i + k,
        user_id: l.userId,
        salt: l.salt,
        balances: l.balances,
      }));
      await trx.insertInto('por_leaves').values(batch).execute();
    }
    return {
      id: row.id,
      createdAt: now,
      assets,
      rootHash: root.hash,
      rootSums: root.sums.map(String),
      leafCount: leaves.length,
    };
  });
}

export async function listSnapshots(db: Kysely<Database>, limit: number): Promise<Snapshot[]> {
  const rows = await db.selectFrom('por_snapshots').selectAll().orderBy('created_at', 'desc').limit(limit).execute();
  return rows.map((r) => ({
    id: r.id,
    createdAt: r.created_at,
    assets: r.assets,
    rootHash: r.root_hash,
    rootSums: r.root_sums.map(String),
    leafCount: r.leaf_count,
  }));
}

/**
 * The user's inclusion proof in a snapshot (the latest by default): the tree is rebuilt from the
 * stored leaves (O(leaves); a snapshot is published at most a few times a day).
 */
export async function proofOf(db: Kysely<Database>, userId: string, snapshotId?: string): Promise<InclusionProof> {
  const [snapshot] = snapshotId
    ? (await listSnapshots(db, 1000)).filter((s) => s.id === snapshotId)
    : await listSnapshots(db, 1);
  if (!snapshot) throw new NotFoundError('No proof of liabilities published yet');
  const leaves = await db
    .selectFrom('por_leaves')
    .select(['position', 'user_id', 'salt', 'balances'])
    .where('snapshot_id', '=', snapshot.id)
    .orderBy('position')
    .execute();
  const mine = leaves.find((l) => l.user_id === userId);
  if (!mine) throw new NotFoundError('You held nothing when this snapshot was taken');
  const data = (l: (typeof leaves)[number]): LeafData => ({
    userId: l.user_id,
    salt: l.salt,
    balances: l.balances.map(String),
  });
  const levels = buildLevels(
    leaves.map((l) => leafNode(data(l))),
    snapshot.assets.length,
  );
  return {
    snapshotId: snapshot.id,
    assets: snapshot.assets,
    leaf: data(mine),
    path: proofPath(levels, mine.position, snapshot.assets.length),
    root: { hash: snapshot.rootHash, sums: snapshot.rootSums },
  };
}

/** Whether `userId` has a leaf in the snapshot (no tree is rebuilt: the status screen asks this first). */
export async function isIncluded(db: Kysely<Database>, snapshotId: string, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom('por_leaves')
    .select('position')
    .where('snapshot_id', '=', snapshotId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row !== undefined;
}
