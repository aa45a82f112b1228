import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { CoinCode } from '../catalogue/catalogue.ts';
import { depositIdempotencyKey } from '../deposits/processor.ts';
import { deliverRewards, payReward, reverseReward } from '../ledger/operations.ts';
import type { RewardsConfig } from './rewards-config.ts';

/**
 * Inviters' rewards (issue 36, item 9 and its review: one qualifying deposit recycled through fake
 * accounts). The rule, stated on the invite screen with these numbers from the configuration:
 * 1. When the invitee is credited one deposit of the rewards asset of at least
 *    `inviteQualifyingMinor`, the reward is booked into the inviter's pending rewards
 *    (system_rewards -> user_rewards, key `reward:invite:<invitee>`), held for the claim delay
 *    (`claimAfterMs`, as every pending reward).
 * 2. Then it is released to the inviter's available balance (user_rewards -> user_available, key
 *    `reward:invite:<invitee>:release`) if the qualifying deposit still stands (not reorged away) and
 *    the invitee's available balance of that asset stayed at least the qualifying amount the whole
 *    time, from that deposit's credit to the release time (every ledger entry, not one instant);
 *    otherwise it is forfeited back to the pool (user_rewards -> system_rewards, key
 *    `reward:invite:<invitee>:forfeit`). Moving the deposit on (withdrawn, sent, sold, converted)
 *    before then forfeits it, even if it comes back by then, so one amount qualifies one account per
 *    claim delay, not many at once by being sent round them.
 * Every step is its own transaction under a lock on the invitation row, keyed, so a repeat is harmless.
 */

type Db = Kysely<Database>;

/** Books the inviter's held reward once the invitee has a qualifying deposit; false when nothing was booked. */
export async function bookInvite(db: Db, inviteeId: string, config: RewardsConfig, at: Date): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const inv = await trx
      .selectFrom('invitations')
      .select(['inviter_id', 'booked_at'])
      .where('invitee_id', '=', inviteeId)
      .forUpdate()
      .executeTakeFirst();
    if (!inv || inv.booked_at !== null) return false;
    const deposit = await trx
      .selectFrom('deposits')
      .select(['id', 'completed_at'])
      .where('user_id', '=', inviteeId)
      .where('state', '=', 'successful')
      .where('reorg_alert_id', 'is', null)
      .where('coin', '=', config.asset)
      .where('amount_minor', '>=', config.inviteQualifyingMinor.toString())
      .orderBy('completed_at')
      .orderBy('id')
      .executeTakeFirst();
    if (!deposit?.completed_at) return false;
    if (config.inviteRewardMinor > 0n) {
      await payReward(
        trx,
        {
          idempotencyKey: `reward:invite:${inviteeId}`,
          userId: inv.inviter_id,
          asset: config.asset,
          amountMinor: config.inviteRewardMinor,
          to: 'rewards',
        },
        at,
      );
    }
    await trx
      .updateTable('invitations')
      .set({
        first_deposit_at: deposit.completed_at,
        reward_asset: config.asset,
        reward_minor: config.inviteRewardMinor.toString(),
        qualifying_deposit_id: deposit.id,
        qualifying_minor: config.inviteQualifyingMinor.toString(),
        booked_at: at,
        release_at: new Date(at.getTime() + config.claimAfterMs),
        // Nothing held: nothing to release later.
        ...(config.inviteRewardMinor > 0n ? {} : { released_at: at }),
      })
      .where('invitee_id', '=', inviteeId)
      .execute();
    return true;
  });
}

/** Invitations not yet booked whose invitee has a deposit that may qualify (bounded). */
export function invitesToBook(db: Db, config: RewardsConfig, limit: number) {
  return db
    .selectFrom('invitations as i')
    .select('i.invitee_id')
    .where('i.booked_at', 'is', null)
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom('deposits as d')
          .select(sql`1`.as('one'))
          .whereRef('d.user_id', '=', 'i.invitee_id')
          .where('d.state', '=', 'successful')
          .where('d.coin', '=', config.asset)
          .where('d.amount_minor', '>=', config.inviteQualifyingMinor.toString()),
      ),
    )
    .limit(limit)
    .execute();
}

/** Held invite rewards due at `at` (oldest first, bounded). */
export function dueInvites(db: Db, at: Date, limit: number) {
  return db
    .selectFrom('invitations')
    .select('invitee_id')
    .where('booked_at', 'is not', null)
    .where('released_at', 'is', null)
    .where('forfeited_at', 'is', null)
    .where('release_at', '<=', at)
    .orderBy('release_at')
    .limit(limit)
    .execute();
}

/** Releases or forfeits one held invite reward; the outcome, or undefined when it was not due. */
export async function settleInvite(db: Db, inviteeId: string, at: Date): Promise<'released' | 'forfeited' | undefined> {
  return db.transaction().execute(async (trx) => {
    const inv = await trx
      .selectFrom('invitations')
      .selectAll()
      .where('invitee_id', '=', inviteeId)
      .forUpdate()
      .executeTakeFirst();
    if (!inv?.booked_at || inv.released_at || inv.forfeited_at || !inv.release_at || inv.release_at > at)
      return undefined;
    const asset = inv.reward_asset as CoinCode;
    const amountMinor = BigInt(inv.reward_minor ?? '0');
    const kept = await stillQualifies(trx, inv, asset);
    const m = { userId: inv.inviter_id, asset, amountMinor };
    if (kept) await deliverRewards(trx, { ...m, idempotencyKey: `reward:invite:${inviteeId}:release` }, at);
    else await reverseReward(trx, { ...m, idempotencyKey: `reward:invite:${inviteeId}:forfeit` }, at);
    await trx
      .updateTable('invitations')
      .set(kept ? { released_at: at } : { forfeited_at: at })
      .where('invitee_id', '=', inviteeId)
      .execute();
    return kept ? 'released' : 'forfeited';
  });
}

/**
 * The qualifying deposit still stands and the invitee's available balance of the asset never went
 * below the qualifying amount from that deposit's credit to `release_at`. Not the balance at one
 * instant: an amount shuttled by internal sends would be back in every account at its release
 * (review M2), so each ledger entry of the account since the credit is looked at (balance_after).
 */
async function stillQualifies(
  db: Db,
  inv: {
    invitee_id: string;
    qualifying_deposit_id: string | null;
    qualifying_minor: string | null;
    release_at: Date | null;
  },
  asset: CoinCode,
): Promise<boolean> {
  if (inv.qualifying_deposit_id === null || inv.qualifying_minor === null || inv.release_at === null) return false;
  const deposit = await db
    .selectFrom('deposits')
    .select(['network', 'tx_hash', 'output_index'])
    .where('id', '=', inv.qualifying_deposit_id)
    .where('state', '=', 'successful')
    .where('reorg_alert_id', 'is', null)
    .executeTakeFirst();
  if (!deposit) return false;
  // Share-locked first: a posting to the invitee's account in flight commits before the entries are read.
  const account = await db
    .selectFrom('ledger_accounts')
    .select('id')
    .where('kind', '=', 'user_available')
    .where('user_id', '=', inv.invitee_id)
    .where('asset', '=', asset)
    .forShare()
    .executeTakeFirst();
  if (!account) return false;
  const creditKey = depositIdempotencyKey(deposit.network, deposit.tx_hash, deposit.output_index);
  const row = await db
    .selectFrom('ledger_entries as e')
    .select(sql<string | null>`min(e.balance_after)::text`.as('lowest'))
    .where('e.account_id', '=', account.id)
    .where('e.id', '>=', (eb) =>
      eb
        .selectFrom('ledger_entries as c')
        .innerJoin('ledger_transfers as t', 't.id', 'c.transfer_id')
        .select('c.id')
        .where('t.idempotency_key', '=', creditKey)
        .where('c.account_id', '=', account.id),
    )
    .where('e.created_at', '<=', inv.release_at)
    .executeTakeFirstOrThrow();
  // No credit entry found (null): nothing proves the amount was held.
  return row.lowest !== null && BigInt(row.lowest) >= BigInt(inv.qualifying_minor);
}
