import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { purgeOldCodes } from '../auth/codes-repository.ts';
import { purgeOldSessions } from '../auth/sessions-repository.ts';
import { purgeIdleThrottles } from '../auth/throttles-repository.ts';
import { purgeExpiredQuotes } from '../convert/repository.ts';
import { purgeOldMoneyChecks } from '../dashboard/money-check.ts';
import { purgeUnusedRateLocks } from '../exchange/repository.ts';
import { purgeExpiredOperatorChallenges } from '../operators/passkeys-repository.ts';
import { purgeUnusedQuotes } from '../ramp/repository.ts';
import { purgeOldLoginAttempts } from '../security/login-history.ts';
import { purgeExpiredChallenges } from '../security/passkeys-repository.ts';
import { purgeUnattachedUploads } from '../uploads/repository.ts';

/**
 * Retention: rows that only mattered for a while are deleted in the background, so what one user (or
 * one attacker trying names) can create is bounded in time as well as in rate. Each owning module's
 * repository says what of its table may go (and keeps a margin past its use, so a support question
 * about yesterday can still be answered); this module only runs them, bounded:
 *
 * - convert quotes never accepted, a day after they expired (convert);
 * - fixed exchange rate locks no order used, a day after they expired (exchange);
 * - buy/sell quotes no order took, a day after they expired (ramp);
 * - verification codes two days after they expired; sessions 30 days after they expired or were
 *   revoked; throttle counters idle for two days that lock nothing (auth);
 * - uploads never attached to a message, a day after they were made (uploads; rows only);
 * - passkey ceremony challenges never answered, once expired (security: 5 minutes).
 * - sign-in attempts older than the 90 days the login history shows (security).
 *
 * A sweep deletes at most `batchRows` rows per statement and `maxBatches` statements per table; rows
 * are picked with SKIP LOCKED, so two instances sweeping at once split the work instead of waiting.
 */

type Purge = (db: Kysely<Database>, now: Date, limit: number) => Promise<number>;

export const retentionRules: ReadonlyArray<{ table: string; purge: Purge; untilDone?: boolean }> = [
  { table: 'convert_quotes', purge: purgeExpiredQuotes },
  { table: 'exchange_rate_locks', purge: purgeUnusedRateLocks },
  { table: 'ramp_quotes', purge: purgeUnusedQuotes },
  { table: 'verification_codes', purge: purgeOldCodes },
  { table: 'sessions', purge: purgeOldSessions },
  { table: 'throttles', purge: purgeIdleThrottles },
  { table: 'uploads', purge: purgeUnattachedUploads },
  // Anyone can start a sign-in ceremony (throttled per IP): the sweep runs until the expired ones are
  // gone, up to CHALLENGE_MAX_BATCHES statements, rather than leaving a backlog that only grows.
  { table: 'webauthn_challenges', purge: purgeExpiredChallenges, untilDone: true },
  { table: 'operator_webauthn_challenges', purge: purgeExpiredOperatorChallenges, untilDone: true },
  { table: 'login_attempts', purge: purgeOldLoginAttempts },
  { table: 'money_checks', purge: purgeOldMoneyChecks },
];

/** Delete statements at most per sweep for a table swept until done (a bound, not a budget). */
export const CHALLENGE_MAX_BATCHES = 1000;

export interface SweepLimits {
  /** Rows per delete statement. Default 1000. */
  batchRows?: number;
  /** Statements per table and sweep. Default 20 (at most 20,000 rows of a table a sweep). */
  maxBatches?: number;
}

/** Deletes what the rules allow at `now`; returns the rows deleted per table. */
export async function sweep(
  db: Kysely<Database>,
  now: Date,
  limits: SweepLimits = {},
): Promise<Record<string, number>> {
  const batchRows = limits.batchRows ?? 1000;
  const maxBatches = limits.maxBatches ?? 20;
  if (batchRows < 1 || maxBatches < 1) throw new Error('retention limits must be positive');
  const deleted: Record<string, number> = {};
  for (const { table, purge, untilDone } of retentionRules) {
    let total = 0;
    for (let i = 0; i < (untilDone ? Math.max(maxBatches, CHALLENGE_MAX_BATCHES) : maxBatches); i++) {
      const n = await purge(db, now, batchRows);
      total += n;
      if (n < batchRows) break;
    }
    deleted[table] = total;
  }
  return deleted;
}

/** Sweeps every `intervalMs` (default 10 minutes) until closed; a failed sweep is logged and retried next time. */
export function startRetention(options: {
  db: Kysely<Database>;
  intervalMs?: number;
  log: { warn(details: Record<string, unknown>, msg: string): void };
}): { name: string; close: () => Promise<void> } {
  let running: Promise<unknown> | null = null;
  const timer = setInterval(
    () => {
      running ??= sweep(options.db, new Date())
        .catch((err: unknown) => options.log.warn({ err }, 'retention sweep failed; retried next time'))
        .finally(() => {
          running = null;
        });
    },
    options.intervalMs ?? 10 * 60_000,
  );
  timer.unref();
  return {
    name: 'retention',
    close: async () => {
      clearInterval(timer);
      await running;
    },
  };
}
