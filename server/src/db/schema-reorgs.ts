import type { ColumnType, Generated } from 'kysely';

/**
 * Tables of migration 0036 (deep reorgs: alerts and the withdrawal freezes they hold) and 0055 (chain
 * alerts: a node on another chain, no fork point, a re-mined transfer that differs); `Database` extends it.
 */
export interface ReorgsDatabase {
  reorg_alerts: ReorgAlertsTable;
  withdrawal_freezes: WithdrawalFreezesTable;
  chain_alerts: ChainAlertsTable;
}

export interface ReorgAlertsTable {
  id: Generated<string>;
  network: string;
  fork_block: ColumnType<string, string, never>;
  deposits: ColumnType<number, number, never>;
  created_at: ColumnType<Date, Date, never>;
  resolved_at: Date | null;
  resolution: string | null;
}

export interface WithdrawalFreezesTable {
  user_id: string;
  alert_id: string;
  created_at: ColumnType<Date, Date, never>;
}

export type ChainAlertKind =
  | 'fork_not_found'
  | 'chain_id_mismatch'
  | 'remined_transfer_differs'
  | 'unexplained_balance';

export interface ChainAlertsTable {
  id: Generated<string>;
  network: string;
  kind: ChainAlertKind;
  dedupe_key: string;
  detail: string;
  created_at: ColumnType<Date, Date, never>;
  resolved_at: Date | null;
  resolution: string | null;
}
