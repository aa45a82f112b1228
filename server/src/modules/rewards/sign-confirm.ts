import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { EvmNetwork } from '../catalogue/chains-file.ts';
import { addDays } from './days.ts';
import { type RewardsConfig, rewardForStreakDay, STREAK_LOOKBACK_DAYS } from './rewards-config.ts';
import { checkInConfirmationsOf } from './sign-repository.ts';

/**
 * Confirming check-ins (issue 36, items 8 and 10). Every check-in event is kept ('seen'); one per user
 * and UTC day is chosen at confirmation (the first to reach its confirmations; the others become
 * 'superseded', seen again should the chosen one be reorged away). Its reward is its place in the
 * user's streak, which must not depend on the order in which networks confirm: a day whose previous
 * day is still only seen (on a slower network) waits for it, so both orders give the same rewards.
 */

/** Sign records decided (confirmed or superseded) per tick and network; the next tick takes the rest. */
const CONFIRM_BATCH = 100;
/**
 * Seen records looked at per tick and network, waiting ones included (review L2: a first page of
 * waiting records must not hold back the ready ones after it; bounded work all the same).
 */
const SCAN_LIMIT = 2_000;
/**
 * An earlier day seen this long ago and still not confirmed (its network's watcher stopped, say) no
 * longer holds later days back: they are rewarded without it.
 */
const WAIT_FOR_EARLIER_MS = 86_400_000;

type Trx = Transaction<Database>;

/**
 * Days of the user's streak before `day` (exclusive): consecutive confirmed days; undefined when a
 * day of it is still only seen (recently), so the caller waits for that day's confirmation.
 */
async function streakBeforeOrWait(trx: Trx, userId: string, day: string, at: Date): Promise<number | undefined> {
  const rows = await trx
    .selectFrom('sign_records')
    .select(['day', 'state'])
    .where('user_id', '=', userId)
    .where('day', '<', day)
    .where('day', '>=', addDays(day, -STREAK_LOOKBACK_DAYS))
    .where((eb) =>
      eb.or([
        eb('state', '=', 'confirmed'),
        eb.and([eb('state', '=', 'seen'), eb('seen_at', '>', new Date(at.getTime() - WAIT_FOR_EARLIER_MS))]),
      ]),
    )
    .execute();
  const confirmed = new Set(rows.filter((r) => r.state === 'confirmed').map((r) => r.day));
  const seen = new Set(rows.filter((r) => r.state === 'seen').map((r) => r.day));
  let n = 0;
  for (let d = addDays(day, -1); n < STREAK_LOOKBACK_DAYS; d = addDays(d, -1)) {
    if (confirmed.has(d)) n++;
    else if (seen.has(d)) return undefined;
    else break;
  }
  return n;
}

type Outcome = 'confirmed' | 'superseded' | 'waiting' | 'gone';

/** Confirms one seen record, supersedes it, or leaves it waiting. */
async function confirmOne(trx: Trx, id: string, config: RewardsConfig, at: Date): Promise<Outcome> {
  const r = await trx
    .selectFrom('sign_records')
    .select(['user_id', 'day', 'state'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (r?.state !== 'seen') return 'gone';
  // One choice per user at a time (networks confirm in their own ticks): the user's row is the lock.
  await trx.selectFrom('users').select('id').where('id', '=', r.user_id).forUpdate().executeTakeFirstOrThrow();
  const row = await trx.selectFrom('sign_records').select('state').where('id', '=', id).executeTakeFirst();
  if (row?.state !== 'seen') return 'gone';
  // Locked (review L1): a reorg's reverseUnclaimedAbove locks and deletes the chosen record and then
  // revives the superseded ones. Unlocked, this read could still see the chosen record while that
  // reorg has revived the others, supersede this one after it, and leave the day with none. Locked,
  // it waits for the reorg to commit and then finds no chosen record (or the reorg waits for us and
  // revives this one).
  const chosen = await trx
    .selectFrom('sign_records')
    .select('id')
    .where('user_id', '=', r.user_id)
    .where('day', '=', r.day)
    .where('state', '=', 'confirmed')
    .forUpdate()
    .executeTakeFirst();
  if (chosen) {
    await trx.updateTable('sign_records').set({ state: 'superseded' }).where('id', '=', id).execute();
    return 'superseded';
  }
  const before = await streakBeforeOrWait(trx, r.user_id, r.day, at);
  if (before === undefined) return 'waiting';
  await trx
    .updateTable('sign_records')
    .set({
      state: 'confirmed',
      confirmed_at: at,
      // The reward is set now, so its asset is too: REWARDS_ASSET may have changed since it was seen.
      asset: config.asset,
      reward_minor: rewardForStreakDay(config, before + 1).toString(),
    })
    .where('id', '=', id)
    .execute();
  return 'confirmed';
}

/**
 * Confirms the network's seen check-ins that have their confirmations at `verifiedHeight`, oldest
 * day first, paging past the ones that wait for an earlier day (keyset on day, block, id) until
 * CONFIRM_BATCH were decided or SCAN_LIMIT looked at. Returns how many were confirmed (superseded and
 * waiting ones are not counted).
 */
export async function confirmSigns(
  db: Kysely<Database>,
  input: { network: EvmNetwork; verifiedHeight: bigint; config: RewardsConfig; at: Date },
): Promise<number> {
  const highest = input.verifiedHeight - BigInt(checkInConfirmationsOf(input.config, input.network)) + 1n;
  let after: { day: string; block_number: string; id: string } | undefined;
  let confirmed = 0;
  let decided = 0;
  for (let scanned = 0; scanned < SCAN_LIMIT && decided < CONFIRM_BATCH; ) {
    const cursor = after;
    const page = await db
      .selectFrom('sign_records')
      .select(['id', 'day', 'block_number'])
      .where('network', '=', input.network)
      .where('state', '=', 'seen')
      .where('block_number', '<=', highest.toString())
      .$if(cursor !== undefined, (q) =>
        q.where(
          sql<boolean>`(day, block_number, id) > (${cursor?.day}::text, ${cursor?.block_number}::bigint, ${cursor?.id}::uuid)`,
        ),
      )
      .orderBy('day')
      .orderBy('block_number')
      .orderBy('id')
      .limit(CONFIRM_BATCH)
      .execute();
    for (const r of page) {
      const outcome = await db.transaction().execute((trx) => confirmOne(trx, r.id, input.config, input.at));
      if (outcome === 'confirmed') confirmed++;
      if (outcome === 'confirmed' || outcome === 'superseded') decided++;
    }
    scanned += page.length;
    if (page.length < CONFIRM_BATCH) break;
    after = page[page.length - 1];
  }
  return confirmed;
}
