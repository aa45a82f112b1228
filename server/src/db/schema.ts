import type { ColumnType, Generated } from 'kysely';

/**
 * Table types for Kysely. Columns are snake_case, as in SQL; repositories map
 * rows to API shapes. Add a table here in the same change as its migration.
 */
export interface Database {
  users: UsersTable;
  user_settings: UserSettingsTable;
}

/** Minimal for now; the auth module extends it in later migrations. */
export interface UsersTable {
  id: Generated<string>;
  created_at: ColumnType<Date, Date | undefined, never>;
}

export interface UserSettingsTable {
  user_id: string;
  language: string;
  price_color: string;
  fiat_currency: string;
  quick_buy_enabled: boolean;
  quick_buy_coin: string;
  /** numeric(11,2): read as a string such as "100.00". */
  quick_buy_fiat_amount: string;
  updated_at: Date;
}
