/** Compliance's locks on a user (migration 0098); `Database` in schema.ts extends `OpsUsersDatabase`. */
export interface OpsUsersDatabase {
  operator_freezes: OperatorLockTable;
  operator_withdrawal_holds: OperatorLockTable;
}

/** One row per user while compliance's freeze (or withdrawal hold) stands; lifting deletes it. */
export interface OperatorLockTable {
  user_id: string;
  placed_at: Date;
  operator_id: string;
  reason: string;
}
