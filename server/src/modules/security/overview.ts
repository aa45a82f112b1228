import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { allowlistState } from '../allowlist/policy.ts';
import { withdrawalsFrozen } from '../deposits/reorg-alerts.ts';
import { outflowHold } from '../withdrawals/outflow-holds.ts';
import type { FactorStatus } from './factors-service.ts';
import { freezeState } from './freeze-state.ts';
import { deviceOf, type LoginEntry } from './login-history.ts';

/**
 * What keeps coins in the account now, each with why and until when (null: until someone acts):
 * - outflow_hold: the 24 h hold after a security change; `reason` is the audit event that started it
 *   (password_reset, passkey_added, …: withdrawals/outflow-holds.ts holdingEvents).
 * - account_frozen: the owner froze the account; `until` is when an asked-for unfreeze takes effect.
 * - reorg_hold: a deep chain reorg touched a deposit; an operator lifts it.
 */
export interface SecurityLock {
  kind: 'outflow_hold' | 'account_frozen' | 'reorg_hold';
  reason: string | null;
  since: string | null;
  until: string | null;
}

export type NextStep = 'add_passkey' | 'add_authenticator' | 'turn_on_allowlist' | 'new_recovery_codes';

export interface SecurityOverview {
  factors: FactorStatus;
  allowlist: { on: boolean; offAt: string | null };
  locks: SecurityLock[];
  /** The latest successful sign-in (last 90 days), and failed attempts after it. */
  lastSignIn: Pick<LoginEntry, 'at' | 'ip' | 'device' | 'place' | 'method'> | null;
  failedSinceLastSignIn: number;
  next: NextStep[];
}

/** Fewer recovery codes than this left: the overview suggests new ones. */
export const RECOVERY_CODES_LOW = 3;
/** Failed attempts counted after the last sign-in, at most (a number shown, not a scan of everything). */
const FAILED_COUNT_MAX = 100;

/** The locks on the account's outflows at `now`, the most binding first (freeze, reorg, hold). */
export async function securityLocks(db: Kysely<Database>, userId: string, now: Date): Promise<SecurityLock[]> {
  const [freeze, reorg, hold] = await Promise.all([
    freezeState(db, userId, now),
    withdrawalsFrozen(db, userId),
    outflowHold(db, userId, now),
  ]);
  const locks: SecurityLock[] = [];
  if (freeze.frozen)
    locks.push({
      kind: 'account_frozen',
      reason: null,
      since: freeze.frozenAt?.toISOString() ?? null,
      until: freeze.thawsAt?.toISOString() ?? null,
    });
  if (reorg) locks.push({ kind: 'reorg_hold', reason: null, since: null, until: null });
  if (hold) locks.push({ kind: 'outflow_hold', reason: hold.event, since: null, until: hold.until.toISOString() });
  return locks;
}

async function lastSignIn(db: Kysely<Database>, userId: string, now: Date) {
  const since = new Date(now.getTime() - 90 * 86_400_000);
  const row = await db
    .selectFrom('login_attempts')
    .selectAll()
    .where('user_id', '=', userId)
    .where('result', '=', 'succeeded')
    .where('occurred_at', '>', since)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  const failed = await db
    .selectFrom((eb) =>
      eb
        .selectFrom('login_attempts')
        .select('id')
        .where('user_id', '=', userId)
        .where('result', 'in', ['failed', 'factor_failed'])
        .where('occurred_at', '>', since)
        // After the sign-in by id, not time: attempts within the same instant keep their order.
        .$if(row !== undefined, (q) => q.where('id', '>', row?.id ?? '0'))
        .limit(FAILED_COUNT_MAX)
        .as('f'),
    )
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  const entry = row
    ? {
        at: row.occurred_at.toISOString(),
        ip: row.ip,
        device: deviceOf(row.user_agent),
        place: { country: row.country, region: row.region, city: row.city },
        method: row.method,
      }
    : null;
  return { entry, failed: Number(failed.n) };
}

/** The owner's security at a glance: factors, allowlist, locks, last sign-in and what to do next. */
export async function securityOverview(
  db: Kysely<Database>,
  factors: { status(userId: string): Promise<FactorStatus> },
  userId: string,
  now: Date,
): Promise<SecurityOverview> {
  const [status, allowlist, locks, signIn] = await Promise.all([
    factors.status(userId),
    allowlistState(db, userId, now),
    securityLocks(db, userId, now),
    lastSignIn(db, userId, now),
  ]);
  const next: NextStep[] = [];
  if (status.passkeys === 0) next.push('add_passkey');
  if (!status.totp && status.passkeys === 0) next.push('add_authenticator');
  if (!allowlist.on || allowlist.offAt !== null) next.push('turn_on_allowlist');
  if ((status.totp || status.passkeys > 0) && status.recoveryCodesLeft < RECOVERY_CODES_LOW)
    next.push('new_recovery_codes');
  return {
    factors: status,
    allowlist: { on: allowlist.on, offAt: allowlist.offAt?.toISOString() ?? null },
    locks,
    lastSignIn: signIn.entry,
    failedSinceLastSignIn: signIn.failed,
    next,
  };
}
