import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { type CoinCode, findCoinNetwork, nativeCoinOf } from '../catalogue/catalogue.ts';
import type { EvmNetwork } from '../catalogue/chains-file.ts';
import { reverseReward } from '../ledger/operations.ts';
import { addDays } from './days.ts';
import { type RewardsConfig, rewardForStreakDay, STREAK_LOOKBACK_DAYS } from './rewards-config.ts';

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
 * longer counts; a check-in re-mined later is recorded again). Returns how many.
 */
export async function reverseUnclaimedAbove(
  trx: Transaction<Database>,
  network: string,
  forkBlock: bigint,
  at: Date,
): Promise<number> {
  const rows = await trx
    .selectFrom('sign_records')
    .select(['id', 'user_id', 'asset', 'reward_minor', 'booked_at'])
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
  }
  return rows.length;
}

/** Sign records confirmed per tick and network (bounded work; the next tick takes the rest). */
const CONFIRM_BATCH = 100;

export { STREAK_LOOKBACK_DAYS };

/** Consecutive days before `day` (exclusive) present in `days`. */
function streakBefore(days: ReadonlySet<string>, day: string): number {
  let n = 0;
  for (let d = addDays(day, -1); days.has(d) && n < STREAK_LOOKBACK_DAYS; d = addDays(d, -1)) n++;
  return n;
}

/** The user's confirmed sign days within the look-back window before `day`. */
export async function confirmedDaysBefore(db: Db, userId: string, day: string): Promise<Set<string>> {
  const rows = await db
    .selectFrom('sign_records')
    .select('day')
    .where('user_id', '=', userId)
    .where('state', '=', 'confirmed')
    .where('day', '<', day)
    .where('day', '>=', addDays(day, -STREAK_LOOKBACK_DAYS))
    .execute();
  return new Set(rows.map((r) => r.day));
}

/**
 * Confirms the network's seen check-ins that have their confirmations at `verifiedHeight`, oldest
 * day first, each with the reward of its place in the user's streak. Returns how many.
 */
export async function confirmSigns(
  db: Kysely<Database>,
  input: { network: EvmNetwork; verifiedHeight: bigint; config: RewardsConfig; at: Date },
): Promise<number> {
  const highest = input.verifiedHeight - BigInt(checkInConfirmationsOf(input.config, input.network)) + 1n;
  const ready = await db
    .selectFrom('sign_records')
    .select(['id', 'user_id', 'day'])
    .where('network', '=', input.network)
    .where('state', '=', 'seen')
    .where('block_number', '<=', highest.toString())
    .orderBy('day')
    .orderBy('block_number')
    .limit(CONFIRM_BATCH)
    .execute();
  let confirmed = 0;
  for (const r of ready) {
    const done = await db.transaction().execute(async (trx) => {
      const row = await trx
        .selectFrom('sign_records')
        .select('state')
        .where('id', '=', r.id)
        .forUpdate()
        .executeTakeFirst();
      if (row?.state !== 'seen') return false;
      const streakDay = streakBefore(await confirmedDaysBefore(trx, r.user_id, r.day), r.day) + 1;
      await trx
        .updateTable('sign_records')
        .set({
          state: 'confirmed',
          confirmed_at: input.at,
          // The reward is set now, so its asset is too: REWARDS_ASSET may have changed since it was seen.
          asset: input.config.asset,
          reward_minor: rewardForStreakDay(input.config, streakDay).toString(),
        })
        .where('id', '=', r.id)
        .execute();
      return true;
    });
    if (done) confirmed++;
  }
  return confirmed;
}

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

export async function listSignRecords(db: Db, userId: string, limit: number): Promise<SignRecordView[]> {
  const rows = await db
    .selectFrom('sign_records')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('day', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    day: r.day,
    network: r.network,
    address: r.address,
    txHash: r.tx_hash,
    state: r.state,
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
