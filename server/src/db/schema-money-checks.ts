import type { ColumnType, Generated } from 'kysely';

/** The money dashboard's scheduled checks (migration 0101); `Database` in schema.ts extends it. */
export interface MoneyChecksDatabase {
  money_checks: MoneyChecksTable;
}

export interface MoneyChecksTable {
  id: Generated<string>;
  requested_at: Date;
  /** The operator's name, or null for the schedule. */
  requested_by: string | null;
  started_at: Date | null;
  finished_at: Date | null;
  ok: boolean | null;
  /** JSON of MoneyCheckReport (dashboard/money-check.ts). */
  report: ColumnType<unknown | null, string | null, string | null>;
}
