import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { type CoinCode, findCoinNetwork, nativeCoinOf } from '../catalogue/catalogue.ts';
import type { EvmNetwork } from '../catalogue/chains-file.ts';
import { reverseReward } from '../ledger/operations.ts';
import { type RewardsConfig, STREAK_LOOKBACK_DAYS } from './rewards-config.ts';

type Db = Kysely<Database> | Transaction<Database>;

/**
 * Blocks (the inclusion block counts as 1) before a check-in counts: the network's deposit
 * confirmations (6 on Ethereum, 64 on BSC), or more when CHECKIN_CONFIRMATIONS asks for more. A reward
 * must not outrun the chain's finality any more than a deposit does.
 */
export function checkInConfirmationsOf(config: RewardsConfig, network: EvmNetwork): number {
  const pair = findCoinNetwork(nativeCoinOf(network), network);
  return Math.max(config.checkInConfirmations, pair?.confirmations ?? 1);
}

/**
 * Confirmed, unclaimed check-ins of the network above a fork block: their booked reward taken back
 * from the user's pending rewards (key `reward:sign:<id>:reorg`), the records deleted (the day no
 * longer counts; a check-in re-mined later is recorded again), and the user's other check-ins of that
 * day, superseded by it, seen again (the next confirm step may choose one). Returns how many.
 */
export async function reverseUnclaimedAbove(
  trx: Transaction<Database>,
  network: string,
  forkBlock: bigint,
  at: Date,
): Promise<number> {
  const rows = await trx
    .selectFrom('sign_records')
    .select(['id', 'user_id', 'day', 'asset', 'reward_minor', 'booked_at'])
    .where('network', '=', network)
    .where('state', '=', 'confirmed')
    .where('claim_id', 'is', null)
    .where('block_number', '>', forkBlock.toString())
    .forUpdate()
    .execute();
  for (const r of rows) {
    const amountMinor = BigInt(r.reward_minor);
    if (r.booked_at !== null && amountMinor > 0n) {
      await reverseReward(
        trx,
        { idempotencyKey: `reward:sign:${r.id}:reorg`, userId: r.user_id, asset: r.asset as CoinCode, amountMinor },
        at,
      );
    }
    await trx.deleteFrom('sign_records').where('id', '=', r.id).execute();
    // The user's other check-ins of that day, kept when this one was chosen, may count now.
    await trx
      .updateTable('sign_records')
      .set({ state: 'seen' })
      .where('user_id', '=', r.user_id)
      .where('day', '=', r.day)
      .where('state', '=', 'superseded')
      .execute();
  }
  return rows.length;
}

export { STREAK_LOOKBACK_DAYS };

export interface SignRecordView {
  id: string;
  day: string;
  network: string;
  address: string;
  txHash: string;
  state: 'seen' | 'confirmed';
  asset: string;
  rewardMinor: string;
  signedAt: Date;
  booked: boolean;
  claimId: string | null;
}

/**
 * The user's newest days, one record each: the confirmed one, else the first seen (a day may hold
 * several check-ins until one is chosen; the others are kept as superseded and not listed).
 */
export async function listSignRecords(db: Db, userId: string, limit: number): Promise<SignRecordView[]> {
  const rows = await db
    .selectFrom('sign_records')
    .selectAll()
    .distinctOn('day')
    .where('user_id', '=', userId)
    .where('state', 'in', ['seen', 'confirmed'])
    .orderBy('day', 'desc')
    .orderBy(sql`state = 'confirmed'`, 'desc')
    .orderBy('seen_at')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    day: r.day,
    network: r.network,
    address: r.address,
    txHash: r.tx_hash,
    state: r.state as SignRecordView['state'],
    asset: r.asset,
    rewardMinor: r.reward_minor,
    signedAt: r.seen_at,
    booked: r.booked_at !== null,
    claimId: r.claim_id,
  }));
}

/**
 * Booked, unclaimed rewards in `asset`: claimable (signed at or before `cutoff`) and still waiting for
 * their 24 hours, summed by PostgreSQL over all of the user's records (amounts of another asset, left
 * from before a REWARDS_ASSET change, are not added to them: the records list shows them).
 */
export async function unclaimedTotals(
  db: Db,
  userId: string,
  cutoff: Date,
  asset: string,
): Promise<{ claimable: bigint; waiting: bigint }> {
  const row = await db
    .selectFrom('sign_records')
    .select([
      sql<string>`coalesce(sum(reward_minor) filter (where seen_at <= ${cutoff}), 0)::text`.as('claimable'),
      sql<string>`coalesce(sum(reward_minor) filter (where seen_at > ${cutoff}), 0)::text`.as('waiting'),
    ])
    .where('user_id', '=', userId)
    .where('asset', '=', asset)
    .where('booked_at', 'is not', null)
    .where('claim_id', 'is', null)
    .executeTakeFirstOrThrow();
  return { claimable: BigInt(row.claimable), waiting: BigInt(row.waiting) };
}

/** The user's confirmed sign days from `since` on (for the streak strip and the delivery rule). */
export async function confirmedDaysSince(db: Db, userId: string, since: string): Promise<string[]> {
  const rows = await db
    .selectFrom('sign_records')
    .select('day')
    .where('user_id', '=', userId)
    .where('state', '=', 'confirmed')
    .where('day', '>=', since)
    .orderBy('day')
    .execute();
  return rows.map((r) => r.day);
}

/** A user's member tag, created on first use (32 random bytes). */
export async function memberTagOf(db: Db, userId: string, fresh: () => string, at: Date): Promise<string> {
  const existing = await db.selectFrom('member_tags').select('tag').where('user_id', '=', userId).executeTakeFirst();
  if (existing) return existing.tag;
  await db
    .insertInto('member_tags')
    .values({ user_id: userId, tag: fresh(), created_at: at })
    .onConflict((oc) => oc.column('user_id').doNothing())
    .execute();
  const row = await db.selectFrom('member_tags').select('tag').where('user_id', '=', userId).executeTakeFirstOrThrow();
  return row.tag;
}
