import Bowser from 'bowser';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { LoginAttemptsTable } from '../../db/schema-security.ts';
import { placeFromIp } from '../../lib/ip-place.ts';
import type { Client } from '../auth/client.ts';

/** How far back the owner sees sign-ins. */
export const LOGIN_HISTORY_DAYS = 90;
export const LOGIN_HISTORY_PAGE_MAX = 50;

export type LoginMethod = LoginAttemptsTable['method'];
export type LoginResult = LoginAttemptsTable['result'];

/** Throttled sign-in attempts kept in a user's login history per hour (the rest are only audited). */
export const THROTTLED_ROWS_PER_HOUR = 10;
/** Refused passkey answers kept in a user's login history per hour (the rest are only audited). */
export const FAILED_PASSKEY_ROWS_PER_HOUR = THROTTLED_ROWS_PER_HOUR;

interface AttemptEntry {
  userId: string;
  client: Pick<Client, 'ip' | 'userAgent'>;
  at: Date;
  method: LoginMethod;
  result: LoginResult;
}

/**
 * The hourly cap of an attempt's kind, or null (every one recorded). Capped: the attempts that cost an
 * attacker nothing, one row each of which let anyone flood a victim's history and push the real sign-ins
 * out of view. Throttled attempts skip the password check (review 31, F10). A refused passkey answer
 * needs only the credential id, which is not secret, and no throttle bounds it (a signature is not a
 * guess). Wrong passwords and wrong codes stay uncapped: the account's throttles already bound them.
 */
function hourlyCap(entry: AttemptEntry): { limit: number; method?: LoginMethod } | null {
  if (entry.result === 'throttled') return { limit: THROTTLED_ROWS_PER_HOUR };
  if (entry.result === 'failed' && entry.method === 'passkey')
    return { limit: FAILED_PASSKEY_ROWS_PER_HOUR, method: 'passkey' };
  return null;
}

/**
 * Records one attempt on a known account; pass the transaction of the sign-in when there is one.
 * `uncapped`: an attempt of a capped kind that happens at most once per cause (a suspended passkey).
 */
export async function recordLoginAttempt(
  db: Kysely<Database>,
  entry: AttemptEntry,
  options: { uncapped?: boolean } = {},
): Promise<void> {
  const cap = options.uncapped ? null : hourlyCap(entry);
  if (cap === null) {
    await db.insertInto('login_attempts').values(loginAttemptRow(entry)).execute();
    return;
  }
  // The count and the insert under a per-user lock, so a burst of concurrent refusals cannot all see room
  // under the cap. The lock is tried, never waited for: the callers are not signed in (a forged passkey
  // answer needs only the victim's credential id, and /auth/passkey/login has no per-IP throttle), and a
  // burst queued on the lock would park the pool's connections and starve every other request. While
  // another attempt of the user holds it, this one gets no history row: the history is capped anyway,
  // and the audit log keeps every attempt (the callers write it whatever happens here).
  const capped = async (trx: Kysely<Database>) => {
    const lock = `login_history:${entry.userId}`;
    const { rows } = await sql<{
      locked: boolean;
    }>`select pg_try_advisory_xact_lock(hashtext(${lock})) as locked`.execute(trx);
    if (rows[0]?.locked !== true) return;
    // Served by login_attempts_capped_idx (migration 0122): a capped result is 'throttled' or 'failed'.
    let count = trx
      .selectFrom('login_attempts')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('user_id', '=', entry.userId)
      .where('result', '=', entry.result)
      .where('occurred_at', '>', new Date(entry.at.getTime() - 3_600_000));
    if (cap.method !== undefined) count = count.where('method', '=', cap.method);
    const { n } = await count.executeTakeFirstOrThrow();
    if (Number(n) < cap.limit) await trx.insertInto('login_attempts').values(loginAttemptRow(entry)).execute();
  };
  if (db.isTransaction) await capped(db);
  else await db.transaction().execute(capped);
}

/** The login_attempts row of one attempt (for a statement that inserts it with others: login-factor-repository.ts). */
export function loginAttemptRow(entry: AttemptEntry) {
  // Looked up now (offline data, no request leaves the server): the place as it was at the sign-in.
  const place = entry.client.ip ? placeFromIp(entry.client.ip) : null;
  return {
    country: place?.country ?? null,
    region: place?.region?.slice(0, 100) ?? null,
    city: place?.city?.slice(0, 100) ?? null,
    user_id: entry.userId,
    occurred_at: entry.at,
    ip: entry.client.ip,
    user_agent: entry.client.userAgent?.slice(0, 500) ?? null,
    method: entry.method,
    result: entry.result,
  };
}

export interface LoginEntry {
  id: string;
  at: string;
  ip: string | null;
  /** Parsed from the User-Agent (bowser); null parts when it said nothing. */
  device: { browser: string | null; os: string | null; platform: string | null };
  /** Approximate, from offline IP data at the sign-in; null parts when unknown. */
  place: { country: string | null; region: string | null; city: string | null };
  method: LoginMethod;
  result: LoginResult;
}

/**
 * Only names Bowser knows from its own tables, and plain version numbers: the User-Agent is the
 * client's free text, and a thief's one ("support checked this sign-in, press approve https://…")
 * must not reach our anti-phishing-stamped mail or the login history (review s6b, finding 3).
 */
const KNOWN_BROWSERS = new Set(Object.values(Bowser.BROWSER_MAP));
const KNOWN_OSES = new Set(Object.values(Bowser.OS_MAP));
const KNOWN_PLATFORMS = new Set(Object.values(Bowser.PLATFORMS_MAP));
const VERSION = /^\d{1,4}(?:[._]\d{1,4}){0,3}$/;
/** Bowser's own version names (Windows "10", macOS "Sonoma", Android "Pie"); nothing else. */
const VERSION_NAME = /^[A-Za-z0-9 .]{1,20}$/;

function known(set: Set<string>, name: string | undefined): string | undefined {
  return name !== undefined && set.has(name) ? name : undefined;
}

export function deviceOf(userAgent: string | null): LoginEntry['device'] {
  if (!userAgent) return { browser: null, os: null, platform: null };
  const parsed = Bowser.parse(userAgent.slice(0, 1000));
  const join = (...parts: (string | undefined)[]) => parts.filter(Boolean).join(' ') || null;
  const browser = known(KNOWN_BROWSERS, parsed.browser.name);
  const major = parsed.browser.version?.split('.')[0];
  const os = known(KNOWN_OSES, parsed.os.name);
  const osVersion = [parsed.os.versionName, parsed.os.version].find(
    (v) => v !== undefined && (VERSION.test(v) || (v === parsed.os.versionName && VERSION_NAME.test(v))),
  );
  return {
    browser: browser ? join(browser, major !== undefined && /^\d{1,4}$/.test(major) ? major : undefined) : null,
    os: os ? join(os, osVersion) : null,
    platform: known(KNOWN_PLATFORMS, parsed.platform.type) ?? null,
  };
}

/** Newest first, `limit` at most, older than `before` (an id) when paging; only the last 90 days. */
export async function listLoginAttempts(
  db: Kysely<Database>,
  userId: string,
  now: Date,
  page: { before?: string | undefined; limit: number },
): Promise<{ logins: LoginEntry[]; nextBefore: string | null }> {
  const limit = Math.min(Math.max(page.limit, 1), LOGIN_HISTORY_PAGE_MAX);
  let query = db
    .selectFrom('login_attempts')
    .selectAll()
    .where('user_id', '=', userId)
    .where('occurred_at', '>', new Date(now.getTime() - LOGIN_HISTORY_DAYS * 86_400_000))
    .orderBy('id', 'desc')
    .limit(limit + 1);
  if (page.before !== undefined) query = query.where('id', '<', page.before);
  const rows = await query.execute();
  const shown = rows.slice(0, limit);
  return {
    logins: shown.map((r) => ({
      id: r.id,
      at: r.occurred_at.toISOString(),
      ip: r.ip,
      device: deviceOf(r.user_agent),
      place: { country: r.country, region: r.region, city: r.city },
      method: r.method,
      result: r.result,
    })),
    nextBefore: rows.length > limit ? (shown.at(-1)?.id ?? null) : null,
  };
}

/** Retention: sign-in attempts older than the 90 days the owner sees, `limit` rows at a time. */
export async function purgeOldLoginAttempts(db: Kysely<Database>, now: Date, limit: number): Promise<number> {
  const before = new Date(now.getTime() - LOGIN_HISTORY_DAYS * 86_400_000);
  const result = await sql`delete from login_attempts where id in (
    select id from login_attempts where occurred_at < ${before}
    limit ${limit} for update skip locked)`.execute(db);
  return Number(result.numAffectedRows ?? 0n);
}
