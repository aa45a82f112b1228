import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';

/** At most this many users per search: a prefix shared by a thousand users answers 20 and says so. */
export const SEARCH_LIMIT = 20;
export const SEARCH_KEY_MAX = 200;

export const MATCHED_BY = ['user_id', 'email', 'username', 'deposit_address', 'tx_hash'] as const;
export type MatchedBy = (typeof MATCHED_BY)[number];

export interface SearchHit {
  userId: string;
  username: string;
  email: string;
  createdAt: Date;
  matchedBy: MatchedBy;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A user name as registration allows it; anything else is looked for as an address or a hash only. */
const USERNAME_LIKE = /^[A-Za-z0-9_.-]{1,64}$/;

/** What kind of key it is, for the audit record and to pick the queries (an e-mail is never a prefix). */
export function keyKind(key: string): 'user_id' | 'email' | 'other' {
  if (UUID.test(key)) return 'user_id';
  if (key.includes('@')) return 'email';
  return 'other';
}

const hitColumns = ['a.user_id', 'a.username', 'a.email', 'a.created_at'] as const;

/**
 * Users matching `key`, at most SEARCH_LIMIT (+1 to tell there are more): the user id, the e-mail
 * (exact, as stored lower-cased), else the user name (exact first, then by prefix), a deposit address
 * or a deposit's / withdrawal's transaction hash (exact, case-insensitive: EVM hex has two spellings).
 */
export async function searchUsers(db: Kysely<Database>, key: string): Promise<{ hits: SearchHit[]; more: boolean }> {
  const kind = keyKind(key);
  const hits = new Map<string, SearchHit>();
  const add = (rows: { user_id: string; username: string; email: string; created_at: Date }[], by: MatchedBy) => {
    for (const r of rows)
      if (!hits.has(r.user_id))
        hits.set(r.user_id, {
          userId: r.user_id,
          username: r.username,
          email: r.email,
          createdAt: r.created_at,
          matchedBy: by,
        });
  };
  const accounts = () => db.selectFrom('accounts as a').select(hitColumns);
  if (kind === 'user_id') {
    add(await accounts().where('a.user_id', '=', key).execute(), 'user_id');
  } else if (kind === 'email') {
    add(await accounts().where('a.email', '=', key.toLowerCase()).execute(), 'email');
  } else {
    const lower = key.toLowerCase();
    add(await accounts().where(sql<string>`lower(a.username)`, '=', lower).execute(), 'username');
    const addressOwners = await db
      .selectFrom('deposit_addresses as d')
      .innerJoin('accounts as a', 'a.user_id', 'd.user_id')
      .select(hitColumns)
      .where(sql<string>`lower(d.address)`, '=', lower)
      .limit(SEARCH_LIMIT)
      .execute();
    add(addressOwners, 'deposit_address');
    const byHash = await db
      .selectFrom('deposits as d')
      .innerJoin('accounts as a', 'a.user_id', 'd.user_id')
      .select(hitColumns)
      .where(sql<string>`lower(d.tx_hash)`, '=', lower)
      .union(
        db
          .selectFrom('withdrawals as w')
          .innerJoin('accounts as a', 'a.user_id', 'w.user_id')
          .select(hitColumns)
          .where(sql<string>`lower(w.tx_hash)`, '=', lower),
      )
      .limit(SEARCH_LIMIT)
      .execute();
    add(byHash, 'tx_hash');
    if (USERNAME_LIKE.test(key) && hits.size <= SEARCH_LIMIT) {
      const escaped = lower.replace(/[\\%_]/g, (c) => `\\${c}`);
      const prefixed = await accounts()
        .where(sql<string>`lower(a.username)`, 'like', `${escaped}%`)
        .orderBy(sql`lower(a.username)`)
        .limit(SEARCH_LIMIT + 1)
        .execute();
      add(prefixed, 'username');
    }
  }
  const all = [...hits.values()];
  return { hits: all.slice(0, SEARCH_LIMIT), more: all.length > SEARCH_LIMIT };
}
