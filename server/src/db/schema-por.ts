import type { ColumnType, Generated } from 'kysely';

/** Proof of liabilities (migration 0026); `Database` in schema.ts extends it. */
export interface PorDatabase {
  por_snapshots: PorSnapshotsTable;
  por_leaves: PorLeavesTable;
}

export interface PorSnapshotsTable {
  id: Generated<string>;
  created_at: Date;
  assets: string[];
  root_hash: string;
  /** NUMERIC(78,0)[]: read as decimal strings. */
  root_sums: ColumnType<string[], string[], never>;
  leaf_count: number;
}

export interface PorLeavesTable {
  snapshot_id: string;
  position: number;
  user_id: string;
  salt: string;
  balances: ColumnType<string[], string[], never>;
}
