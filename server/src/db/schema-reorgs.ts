import type { ColumnType, Generated } from 'kysely';

/** Tables of migration 0036 (deep reorgs: alerts and the withdrawal freezes they hold); `Database` extends it. */
export interface ReorgsDatabase {
  reorg_alerts: ReorgAlertsTable;
  withdrawal_freezes: WithdrawalFreezesTable;
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
