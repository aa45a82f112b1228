import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { AccountRow } from '../auth/accounts-repository.ts';
import type { SessionRow } from '../auth/sessions-repository.ts';
import type { ThrottleState } from '../auth/throttle-schedule.ts';
import type { loginAttemptRow } from './login-history.ts';

/**
 * The statements of a sign-in's second step with an authenticator code (login-factor-totp.ts), each
 * doing in one round trip what the general path does in several. Only for throttle counters kept in
 * this database (ThrottleStore.inDatabase).
 */
type Db = Kysely<Database>;

/** Not exported: only lockFactorAttempt makes a FactorAttempt (review L4). */
declare const underRowLock: unique symbol;

export interface FactorAttempt {
  userId: string;
  /** The key's counter before this attempt (undefined: no failures). */
  throttle: ThrottleState | undefined;
  /** The confirmed authenticator's sealed secret; null when the app is not on. */
  secretSealed: Buffer | null;
  /** The handle of an attempt charged under the throttle row's lock: SecondFactors.totpStepOf takes nothing else. */
  readonly [underRowLock]: true;
}

/**
 * The transaction's first statement: takes the row lock of the factor throttle `key` (an upsert always
 * locks its row, inserting a zero counter when there is none) and reads the authenticator's secret.
 *
 * The row lock is held until the transaction ends: concurrent attempts on the key run one after
 * another, each seeing the counter the one before it committed, so the charge written in the same
 * transaction as the verdict can never be skipped by a burst (what a read before the check and a write
 * after it, outside a lock, allowed: issue 38).
 *
 * Not the user's sessions lock: a wrong or throttled code must not hold it (someone with the password
 * would queue the owner's own sign-ins behind a burst: review L2). Only a matching code takes it, after
 * this row lock (login-factor-totp.ts); no other transaction holds this row while it waits for the
 * sessions lock (the general path charges in a transaction of its own), so that order cannot deadlock.
 */
export async function lockFactorAttempt(db: Db, userId: string, key: string, at: Date): Promise<FactorAttempt> {
  const result = await sql<{
    failures: number;
    first_failure_at: Date;
    last_failure_at: Date;
    locked_until: Date | null;
    secret_sealed: Buffer | null;
  }>`
    with counter as (
      insert into throttles as t (key, failures, first_failure_at, last_failure_at, locked_until)
      values (${key}, 0, ${at}::timestamptz, ${at}::timestamptz, null::timestamptz)
      on conflict (key) do update set key = excluded.key
      returning t.failures, t.first_failure_at, t.last_failure_at, t.locked_until)
    select counter.*,
      (select secret_sealed from user_totp where user_id = ${userId} and confirmed_at is not null) as secret_sealed
    from counter`.execute(db);
  const row = result.rows[0];
  if (!row) throw new Error('the factor throttle upsert returned no row');
  return {
    userId,
    throttle:
      row.failures > 0
        ? {
            failures: row.failures,
            firstFailureAt: row.first_failure_at,
            lastFailureAt: row.last_failure_at,
            lockedUntil: row.locked_until,
          }
        : undefined,
    secretSealed: row.secret_sealed,
  } as FactorAttempt;
}

export interface AcceptedSignIn {
  /** False: the step was not newer than the last one accepted (a replay), or the app went off. */
  accepted: boolean;
  /** The account, when the pending sign-in was still live and is now ended; undefined otherwise. */
  account: AccountRow | undefined;
  /**
   * Whether the browser was one of the user's known devices, and so the new session was started (its
   * last use touched, the sessions beyond the cap revoked, the audit and history rows written). When
   * false, nothing of that was done: the caller starts a session waiting for the e-mail instead.
   */
  started: boolean;
}

/**
 * The transaction's second statement, all in one round trip, each part only if the one before it took:
 * - accepts time step `step` once, only newer than every step accepted before (as factors-repository
 *   acceptTotpStep), and clears the factor throttle `key`;
 * - ends the pending sign-in, reading its account (as sessions-repository endPendingSignInReturningAccount), only if it still
 *   waits for its factor and has not expired at `session.created_at` (it may have, queued: review L4);
 * - when the browser is a known device (touched, as devices-repository touchKnownDevice): inserts the
 *   new usable session `session`, revokes the user's usable sessions beyond the newest `keep` (as
 *   sessions-repository revokeBeyondNewest; the caller took its lock in a statement before this one,
 *   so this statement's snapshot already sees every sign-in committed before), and writes the audit
 *   and history rows.
 */
export async function acceptTotpSignIn(
  db: Db,
  input: {
    userId: string;
    key: string;
    step: number;
    pendingId: string;
    deviceHash: Buffer | null;
    session: SessionRow;
    keep: number;
    audit: { ip: string; details: Record<string, unknown> };
    history: ReturnType<typeof loginAttemptRow>;
  },
): Promise<AcceptedSignIn> {
  const { userId, key, session: s, history: l, at } = { ...input, at: input.session.created_at };
  const step = String(input.step);
  const result = await sql<AccountRow & { accepted: number; started: number }>`
    with accepted as (
      update user_totp set last_used_step = ${step}
      where user_id = ${userId} and confirmed_at is not null and (last_used_step is null or last_used_step < ${step})
      returning user_id),
    cleared as (delete from throttles where key = ${key} and exists (select 1 from accepted)),
    ended as (
      update sessions s set revoked_at = ${at} from accounts a
      where a.user_id = s.user_id and s.id = ${input.pendingId} and s.user_id = ${userId} and s.revoked_at is null
        and s.factor_pending and s.expires_at > ${at}::timestamptz and exists (select 1 from accepted)
      returning a.*),
    device as (
      update known_devices set last_seen_at = ${at}
      where user_id = ${userId} and device_hash = ${input.deviceHash} and exists (select 1 from ended)
      returning 1),
    inserted as (
      insert into sessions (id, user_id, token_hash, created_at, last_seen_at, expires_at, user_agent, ip,
        factor_pending, device_pending, authenticated_at)
      select ${s.id}::uuid, ${userId}::uuid, ${s.token_hash}::bytea, ${at}::timestamptz, ${at}::timestamptz,
        ${s.expires_at}::timestamptz, ${s.user_agent}::text, ${s.ip}::text, false, false, ${at}::timestamptz
      where exists (select 1 from device)
      returning id),
    revoked as (
      update sessions set revoked_at = ${at}
      where exists (select 1 from inserted) and id in (
        select id from sessions
        where user_id = ${userId} and revoked_at is null and expires_at > ${at}
          and device_pending = false and factor_pending = false
        order by last_seen_at desc, created_at desc offset ${input.keep - 1})),
    audited as (
      insert into audit_events (occurred_at, event, user_id, ip, details)
      select ${at}::timestamptz, 'login_succeeded', ${userId}::uuid, ${input.audit.ip}::text,
        ${JSON.stringify(input.audit.details)}::jsonb
      from inserted),
    recorded as (
      insert into login_attempts (user_id, occurred_at, ip, user_agent, method, result, country, region, city)
      select ${userId}::uuid, ${l.occurred_at}::timestamptz, ${l.ip}::text, ${l.user_agent}::text, ${l.method}::text,
        ${l.result}::text, ${l.country}::text, ${l.region}::text, ${l.city}::text
      from inserted)
    select ended.*, (select count(*) from accepted)::int as accepted, (select count(*) from inserted)::int as started
    from (select 1) as one left join ended on true`.execute(db);
  const row = result.rows[0];
  if (!row) throw new Error('the factor acceptance returned no row');
  const { accepted, started, ...account } = row;
  return {
    accepted: accepted === 1,
    account: account.user_id === null ? undefined : (account as AccountRow),
    started: started === 1,
  };
}
