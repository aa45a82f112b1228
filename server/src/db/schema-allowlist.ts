/**
 * Withdrawal allowlist (migration 0078) and anti-phishing codes (0079); `Database` in schema.ts
 * extends `AllowlistDatabase`.
 */
export interface AllowlistDatabase {
  withdrawal_allowlists: WithdrawalAllowlistsTable;
  anti_phishing_codes: AntiPhishingCodesTable;
}

/** The phrase put at the top of every mail to the user (plain text, 4..32 characters). */
export interface AntiPhishingCodesTable {
  user_id: string;
  phrase: string;
  updated_at: Date;
}

/** On while off_at is null or after now; off_at is when a requested turn-off takes effect. */
export interface WithdrawalAllowlistsTable {
  user_id: string;
  enabled_at: Date;
  off_at: Date | null;
  updated_at: Date;
}
