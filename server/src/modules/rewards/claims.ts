import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { CoinCode } from '../catalogue/catalogue.ts';
import { assert } from '../ledger/model.ts';
import { deliverRewards } from '../ledger/operations.ts';
import { addDays, streakLength, utcDay } from './days.ts';
import {
  ClaimTooEarlyError,
  RewardTooSmallError,
  RewardZeroError,
  StreakRequiredError,
  WalletNotBoundError,
} from './errors.ts';
import type { RewardsConfig } from './rewards-config.ts';
import { confirmedDaysSince, STREAK_LOOKBACK_DAYS } from './sign-repository.ts';

/**
 * Claim and delivery of check-in rewards (specification: claim 24 hours after the sign, a minimum
 * claim, delivery needs 7 consecutive days). A claim marks the user's booked, unclaimed signs that
 * are at least `claimAfterMs` old as claimed; delivery moves
 * every claimed, undelivered amount from user_rewards to user_available in ONE ledger transfer and
 * marks those claims issued, in one transaction under a lock on the user's claims.
 */

type Db = Kysely<Database>;

/** A UUID as PostgreSQL accepts it (anything else cannot name a record). */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface ClaimView {
  id: string;
  asset: string;
  amountMinor: string;
  address: string;
  claimedAt: Date;
  delivered: boolean;
  deliveredAt: Date | null;
}

/**
 * The claim names one of the user's own confirmed check-ins (`signRecordId`), never an address: the
 * claim's wallet is the one that check-in came from. Member tags are public after a first check-in, so
 * anyone can check in "for" a user from their own wallet; an address taken from the request would let
 * such a check-in (or a typed address) stand for the user's wallet. No signature is asked for (the app
 * never asks a wallet to sign): the proof is the user's session plus the user's own record.
 */
export async function claimRewards(
  db: Db,
  input: { userId: string; signRecordId: string; config: RewardsConfig; at: Date },
): Promise<ClaimView> {
  if (!UUID.test(input.signRecordId)) throw new WalletNotBoundError();
  return db.transaction().execute(async (trx) => {
    // One claim at a time per user: the user row is the lock.
    await trx.selectFrom('users').select('id').where('id', '=', input.userId).forUpdate().executeTakeFirstOrThrow();
    const named = await trx
      .selectFrom('sign_records')
      .select('address')
      .where('id', '=', input.signRecordId)
      .where('user_id', '=', input.userId)
      .where('state', '=', 'confirmed')
      .executeTakeFirst();
    if (!named) throw new WalletNotBoundError();
    const address = named.address;
    const open = await trx
      .selectFrom('sign_records')
      .select(['id', 'reward_minor', 'seen_at', 'asset'])
      .where('user_id', '=', input.userId)
      .where('state', '=', 'confirmed')
      .where('booked_at', 'is not', null)
      .where('claim_id', 'is', null)
      .where('reward_minor', '>', '0')
      .execute();
    if (open.length === 0) throw new RewardZeroError();
    const groups = claimableGroups(open, input.config, input.at);
    const claims: ClaimView[] = [];
    for (const [asset, ripe] of groups) {
      const totalMinor = ripe.reduce((sum, r) => sum + BigInt(r.reward_minor), 0n);
      const claim = await trx
        .insertInto('reward_claims')
        .values({ user_id: input.userId, asset, amount_minor: totalMinor.toString(), address, claimed_at: input.at })
        .returningAll()
        .executeTakeFirstOrThrow();
      const marked = await trx
        .updateTable('sign_records')
        .set({ claim_id: claim.id })
        .where(
          'id',
          'in',
          ripe.map((r) => r.id),
        )
        .where('claim_id', 'is', null)
        .executeTakeFirst();
      assert(Number(marked.numUpdatedRows) === ripe.length, 'every ripe sign record is marked claimed once');
      claims.push(toView(claim));
    }
    // The rewards asset's claim is the answer; an older asset's (REWARDS_ASSET changed) is listed with the claims.
    const answer = claims.find((c) => c.asset === input.config.asset) ?? claims[0];
    assert(answer !== undefined, 'a claim was made');
    return answer;
  });
}

type OpenSign = { id: string; reward_minor: string; seen_at: Date; asset: string };

/**
 * The ripe (claimAfterMs old) rewards to claim now, per asset: each asset is claimed on its own (a
 * claim and its delivery stay in one asset), REWARDS_ASSET's only when it reaches the minimum claim
 * (an amount of that asset); an older asset's leftovers whatever their size (the minimum is not in
 * their unit, and they can only shrink). Nothing ripe: CLAIM_TOO_EARLY with the real wait, which is
 * positive since every open reward is then younger than claimAfterMs.
 */
function claimableGroups(open: readonly OpenSign[], config: RewardsConfig, at: Date): Map<string, OpenSign[]> {
  const cutoff = at.getTime() - config.claimAfterMs;
  const groups = new Map<string, OpenSign[]>();
  for (const r of open) if (r.seen_at.getTime() <= cutoff) groups.set(r.asset, [...(groups.get(r.asset) ?? []), r]);
  if (groups.size === 0) {
    const soonest = Math.min(...open.map((r) => r.seen_at.getTime())) + config.claimAfterMs;
    throw new ClaimTooEarlyError(Math.max(1, Math.ceil((soonest - at.getTime()) / 1000)));
  }
  const current = groups.get(config.asset);
  if (current && current.reduce((sum, r) => sum + BigInt(r.reward_minor), 0n) < config.claimMinMinor) {
    groups.delete(config.asset);
    if (groups.size === 0) throw new RewardTooSmallError(config.claimMinMinor);
  }
  return groups;
}

/** Consecutive confirmed days ending today (or yesterday, before today's check-in). */
export async function currentStreak(db: Db, userId: string, at: Date): Promise<number> {
  const today = utcDay(at);
  return streakLength(await confirmedDaysSince(db, userId, addDays(today, -STREAK_LOOKBACK_DAYS)), today);
}

export async function deliverClaims(
  db: Db,
  input: { userId: string; config: RewardsConfig; at: Date },
): Promise<{ deliveredMinor: string; asset: string; claims: number }> {
  const streak = await currentStreak(db, input.userId, input.at);
  if (streak < input.config.deliveryStreakDays) throw new StreakRequiredError(input.config.deliveryStreakDays, streak);
  return db.transaction().execute(async (trx) => {
    const claims = await trx
      .selectFrom('reward_claims')
      .select(['id', 'amount_minor', 'asset'])
      .where('user_id', '=', input.userId)
      .where('delivered_at', 'is', null)
      .orderBy('id')
      .forUpdate()
      .execute();
    if (claims.length === 0) throw new RewardZeroError();
    // One transfer per asset (REWARDS_ASSET may have changed between claims), each key naming its claims.
    const byAsset = new Map<string, typeof claims>();
    for (const c of claims) byAsset.set(c.asset, [...(byAsset.get(c.asset) ?? []), c]);
    const delivered = new Map<string, bigint>();
    for (const [asset, group] of byAsset) {
      const amountMinor = group.reduce((sum, c) => sum + BigInt(c.amount_minor), 0n);
      // The key names the exact set of claims: a retry of the same delivery is the same transfer.
      const ids = group.map((c) => c.id).join(',');
      const key = `reward:delivery:${createHash('sha256').update(ids).digest('hex').slice(0, 40)}`;
      const posted = await deliverRewards(
        trx,
        { idempotencyKey: key, userId: input.userId, asset: asset as CoinCode, amountMinor },
        input.at,
      );
      await trx
        .updateTable('reward_claims')
        .set({ delivered_at: input.at, delivery_transfer_id: posted.transfer.id })
        .where(
          'id',
          'in',
          group.map((c) => c.id),
        )
        .execute();
      delivered.set(asset, amountMinor);
    }
    // The answer names the rewards asset's amount when it was delivered (else the first asset's).
    const asset = delivered.has(input.config.asset) ? input.config.asset : (byAsset.keys().next().value as string);
    return { deliveredMinor: (delivered.get(asset) ?? 0n).toString(), asset, claims: claims.length };
  });
}

export async function listClaims(db: Db, userId: string, limit: number): Promise<ClaimView[]> {
  const rows = await db
    .selectFrom('reward_claims')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('claimed_at', 'desc')
    .limit(limit)
    .execute();
  return rows.map(toView);
}

function toView(c: {
  id: string;
  asset: string;
  amount_minor: string;
  address: string;
  claimed_at: Date;
  delivered_at: Date | null;
}): ClaimView {
  return {
    id: c.id,
    asset: c.asset,
    amountMinor: c.amount_minor,
    address: c.address,
    claimedAt: c.claimed_at,
    delivered: c.delivered_at !== null,
    deliveredAt: c.delivered_at,
  };
}
