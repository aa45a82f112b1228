import Bowser from 'bowser';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { LoginAttemptsTable } from '../../db/schema-security.ts';
import type { Client } from '../auth/client.ts';

/** How far back the owner sees sign-ins. */
export const LOGIN_HISTORY_DAYS = 90;
export const LOGIN_HISTORY_PAGE_MAX = 50;

export type LoginMethod = LoginAttemptsTable['method'];
export type LoginResult = LoginAttemptsTable['result'];

/** Records one attempt on a known account; pass the transaction of the sign-in when there is one. */
export async function recordLoginAttempt(
  db: Kysely<Database>,
  entry: {
    userId: string;
    client: Pick<Client, 'ip' | 'userAgent'>;
    at: Date;
    method: LoginMethod;
    result: LoginResult;
  },
): Promise<void> {
  await db
    .insertInto('login_attempts')
    .values({
      user_id: entry.userId,
      occurred_at: entry.at,
      ip: entry.client.ip,
      user_agent: entry.client.userAgent?.slice(0, 500) ?? null,
      method: entry.method,
      result: entry.result,
    })
    .execute();
}

export interface LoginEntry {
  id: string;
  at: string;
  ip: string | null;
  /** Parsed from the User-Agent (bowser); null parts when it said nothing. */
  device: { browser: string | null; os: string | null; platform: string | null };
  method: LoginMethod;
  result: LoginResult;
}

function deviceOf(userAgent: string | null): LoginEntry['device'] {
  if (!userAgent) return { browser: null, os: null, platform: null };
  const parsed = Bowser.parse(userAgent);
  const join = (...parts: (string | undefined)[]) => parts.filter(Boolean).join(' ') || null;
  return {
    browser: join(parsed.browser.name, parsed.browser.version?.split('.')[0]),
    os: join(parsed.os.name, parsed.os.versionName ?? parsed.os.version),
    platform: parsed.platform.type ?? null,
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
      method: r.method,
      result: r.result,
    })),
    nextBefore: rows.length > limit ? (shown.at(-1)?.id ?? null) : null,
  };
}
