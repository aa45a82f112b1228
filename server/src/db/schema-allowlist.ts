/** Withdrawal allowlist (migration 0078); `Database` in schema.ts extends `AllowlistDatabase`. */
export interface AllowlistDatabase {
  withdrawal_allowlists: WithdrawalAllowlistsTable;
}

/** On while off_at is null or after now; off_at is when a requested turn-off takes effect. */
export interface WithdrawalAllowlistsTable {
  user_id: string;
  enabled_at: Date;
  off_at: Date | null;
  updated_at: Date;
}
