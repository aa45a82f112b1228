import type { Generated } from 'kysely';

/** Remote load reports (migration 0103) and the canary watch's rollbacks (0104); `Database` in schema.ts extends it. */
export interface ClientEventsDatabase {
  client_event_counts: ClientEventCountsTable;
  canary_auto_rollbacks: CanaryAutoRollbacksTable;
}

export interface ClientEventCountsTable {
  bucket_start: Date;
  remote: string;
  version: string;
  kind: 'load' | 'failure';
  error_code: string;
  /** BIGINT: read as a decimal string. */
  events: string;
}

export interface CanaryAutoRollbacksTable {
  remote: string;
  canary_version: string;
  stable_version: string;
  canary_loads: string;
  canary_failures: string;
  stable_loads: string;
  stable_failures: string;
  margin_pct: number;
  min_loads: number;
  decided_at: Generated<Date>;
  done_at: Date | null;
}
