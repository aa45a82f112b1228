import type { Kysely } from 'kysely';
import type { Address, PublicClient } from 'viem';
import { hashToken } from '../../modules/auth/secrets.ts';
import { defaultSessionOptions } from '../../modules/auth/sessions.ts';
import type { Database } from '../schema.ts';
import type { DrillAck, DrillKind, DrillLog } from './api-drill-load.ts';

/**
 * What the failover drill checks on the NEW primary after the load stopped (api-drill-load.ts's log):
 * every acknowledged request is booked, each key once, and no key is booked that the clients did not
 * end up acknowledged (a failed request was retried with its key until acknowledged, so the two sets
 * must be equal); and on the chain, every withdrawal was paid by exactly one transaction.
 */
export interface BooksCheck {
  lost: Record<DrillKind, string[]>;
  /** Booked but never acknowledged to the client (should be empty: every failure was retried). */
  unacknowledged: { send: string[]; withdraw: string[]; convert: string[] };
  /** Keys booked more than once (the unique constraints should make this impossible). */
  bookedTwice: string[];
  /** Acknowledged sign-ins ended by the per-user cap (SESSION_MAX_PER_USER newer ones): not lost. */
  sessionsPastCap: number;
}

function keysOf(log: DrillLog, kind: DrillKind): Set<string> {
  return new Set(log.acked.filter((a) => a.kind === kind).map((a) => a.key));
}

function diff(a: Iterable<string>, b: Set<string>): string[] {
  return [...a].filter((k) => !b.has(k));
}

function twice(rows: { k: string }[]): string[] {
  const seen = new Set<string>();
  const dup: string[] = [];
  for (const { k } of rows) {
    if (seen.has(k)) dup.push(k);
    seen.add(k);
  }
  return dup;
}

export async function checkBooks(
  db: Kysely<Database>,
  log: DrillLog,
  sessionAlive: (ack: DrillAck) => Promise<boolean>,
): Promise<BooksCheck> {
  const sends = await db
    .selectFrom('sends')
    .select('idempotency_key as k')
    .where('idempotency_key', 'like', 'drill-send-%')
    .execute();
  const withdrawals = await db
    .selectFrom('withdrawals')
    .select('idempotency_key as k')
    .where('idempotency_key', 'like', 'drill-wd-%')
    .execute();
  const convertUsers = [...new Set(log.acked.filter((a) => a.kind === 'convert').map((a) => a.userId))];
  const conversions =
    convertUsers.length === 0
      ? []
      : await db.selectFrom('conversions').select('quote_id as k').where('user_id', 'in', convertUsers).execute();
  const booked = {
    send: new Set(sends.map((r) => r.k)),
    withdraw: new Set(withdrawals.map((r) => r.k)),
    convert: new Set(conversions.map((r) => r.k)),
  };
  const { dead: deadSessions, pastCap } = await deadSessionsOf(db, log, sessionAlive);
  return {
    lost: {
      send: diff(keysOf(log, 'send'), booked.send),
      withdraw: diff(keysOf(log, 'withdraw'), booked.withdraw),
      convert: diff(keysOf(log, 'convert'), booked.convert),
      login: deadSessions,
    },
    unacknowledged: {
      send: diff(booked.send, keysOf(log, 'send')),
      withdraw: diff(booked.withdraw, keysOf(log, 'withdraw')),
      convert: diff(booked.convert, keysOf(log, 'convert')),
    },
    bookedTwice: [...twice(sends), ...twice(withdrawals), ...twice(conversions)],
    sessionsPastCap: pastCap,
  };
}

/**
 * Acknowledged sign-ins whose session is gone: no row on the new primary, or a row that does not
 * work and was not ended by the per-user cap. A drill user signs in over and over, so its oldest
 * sessions end as designed when `maxPerUser` newer usable ones exist (sessions.ts): those count
 * apart, not as lost (a drill that ran longer after the failover failed on them).
 */
async function deadSessionsOf(
  db: Kysely<Database>,
  log: DrillLog,
  sessionAlive: (ack: DrillAck) => Promise<boolean>,
): Promise<{ dead: string[]; pastCap: number }> {
  const dead: string[] = [];
  let pastCap = 0;
  for (const ack of log.acked.filter((a) => a.kind === 'login')) {
    if (await sessionAlive(ack)) continue;
    const token = /(?:^|;\s*)(?:__Host-)?sid=([^;]+)/.exec(ack.cookie ?? '')?.[1];
    const row = token
      ? await db
          .selectFrom('sessions')
          .select(['user_id', 'created_at', 'revoked_at'])
          .where('token_hash', '=', hashToken(token))
          .executeTakeFirst()
      : undefined;
    if (!row?.revoked_at) {
      dead.push(ack.key);
      continue;
    }
    const newer = await db
      .selectFrom('sessions')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('user_id', '=', row.user_id)
      .where('created_at', '>', row.created_at)
      .where('factor_pending', '=', false)
      .where('device_pending', '=', false)
      .executeTakeFirstOrThrow();
    if (Number(newer.n) >= defaultSessionOptions.maxPerUser) pastCap += 1;
    else dead.push(ack.key);
  }
  return { dead, pastCap };
}

/**
 * Every transaction the hot wallet sent in blocks [fromBlock, head], by destination: a withdrawal's
 * address (unique per withdrawal) must appear exactly once. Read from the chain, not the database.
 */
export async function hotWalletPayments(
  client: PublicClient,
  hot: Address,
  fromBlock: bigint,
): Promise<Map<string, number>> {
  const head = await client.getBlockNumber();
  const byTo = new Map<string, number>();
  for (let n = fromBlock; n <= head; n += 1n) {
    const block = await client.getBlock({ blockNumber: n, includeTransactions: true });
    for (const tx of block.transactions) {
      if (tx.from.toLowerCase() !== hot.toLowerCase() || !tx.to) continue;
      const to = tx.to.toLowerCase();
      byTo.set(to, (byTo.get(to) ?? 0) + 1);
    }
  }
  return byTo;
}

/** Waits until every acknowledged withdrawal is settled by the signer (paid and booked). */
export async function waitSettled(db: Kysely<Database>, keys: string[], timeoutMs: number): Promise<string[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const open =
      keys.length === 0
        ? []
        : await db
            .selectFrom('withdrawals')
            .select(['idempotency_key', 'state'])
            .where('idempotency_key', 'in', keys)
            .where('state', '!=', 'transfer_successful')
            .execute();
    if (open.length === 0 || Date.now() > deadline) return open.map((r) => `${r.idempotency_key}:${r.state}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
