import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { NotFoundError } from '../../errors/app-error.ts';
import type { EvmNetwork } from '../catalogue/chains-file.ts';
import type { EvmChainRuntime } from '../chain/chain-config.ts';
import type { NoticeLanguage } from '../notices/schemas.ts';
import { claimRewards, deliverClaims, listClaims } from './claims.ts';
import { addDays, nextDayStart, streakLength, utcDay } from './days.ts';
import { inviteCodeOf, listInvitations } from './invites.ts';
import { draw, drawAllowance, drawDays, likePost, listDraws, listPosts, prizeTableHashOf } from './lottery.ts';
import { fairnessView, setClientSeed } from './lottery-seeds.ts';
import type { RewardsConfig } from './rewards-config.ts';
import { RECORDS_MAX } from './schemas.ts';
import { listSignRecords, memberTagOf, STREAK_LOOKBACK_DAYS, unclaimedTotals } from './sign-repository.ts';

export interface RewardsServiceOptions {
  db: Kysely<Database>;
  now: () => Date;
  config: RewardsConfig;
  /** The EVM chains in use; those with a check-in contract are offered for checking in. */
  chains: () => Record<EvmNetwork, EvmChainRuntime | undefined>;
}

export type RewardsService = ReturnType<typeof createRewardsService>;

const freshTag = () => `0x${randomBytes(32).toString('hex')}`;

export function createRewardsService(options: RewardsServiceOptions) {
  const { db, now, config } = options;

  function contracts() {
    return Object.values(options.chains()).flatMap((c) =>
      c?.checkInContract ? [{ network: c.network, chainId: c.chainId, address: c.checkInContract }] : [],
    );
  }

  async function signStatus(userId: string) {
    const at = now();
    const today = utcDay(at);
    const cutoff = at.getTime() - config.claimAfterMs;
    // One record a day: the newest STREAK_LOOKBACK_DAYS give the streak, the week and the list shown.
    const [memberTag, records, claims, totals] = await Promise.all([
      memberTagOf(db, userId, freshTag, at),
      listSignRecords(db, userId, STREAK_LOOKBACK_DAYS),
      listClaims(db, userId, RECORDS_MAX),
      unclaimedTotals(db, userId, new Date(cutoff), config.asset),
    ]);
    const confirmedDays = records.filter((r) => r.state === 'confirmed').map((r) => r.day);
    const streak = streakLength(confirmedDays, today);
    const claimed = claims
      .filter((c) => !c.delivered && c.asset === config.asset)
      .reduce((sum, c) => sum + BigInt(c.amountMinor), 0n);
    const todayRecord = records.find((r) => r.day === today);
    const signedDays = new Set(confirmedDays);
    return {
      memberTag,
      contracts: contracts(),
      today,
      todayState: todayRecord?.state ?? ('none' as const),
      nextDayAt: nextDayStart(at).toISOString(),
      streak,
      week: Array.from({ length: 7 }, (_, i) => {
        const day = addDays(today, i - 6);
        return { day, signed: signedDays.has(day) };
      }),
      asset: config.asset,
      scheduleMinor: config.scheduleMinor.map(String),
      claimableMinor: totals.claimable.toString(),
      waitingMinor: totals.waiting.toString(),
      claimedMinor: claimed.toString(),
      claimMinMinor: config.claimMinMinor.toString(),
      deliveryStreakDays: config.deliveryStreakDays,
      // The screen says "claimable N hours after the check-in" from this, never from a translation.
      claimAfterHours: Math.ceil(config.claimAfterMs / 3_600_000),
      records: records.slice(0, RECORDS_MAX).map((r) => ({
        id: r.id,
        day: r.day,
        network: r.network,
        address: r.address,
        txHash: r.txHash,
        state: r.state,
        asset: r.asset,
        rewardMinor: r.rewardMinor,
        signedAt: r.signedAt.toISOString(),
        claimable: r.booked && r.claimId === null && r.signedAt.getTime() <= cutoff && r.rewardMinor !== '0',
        claimed: r.claimId !== null,
      })),
      claims: claims.map(claimOut),
    };
  }

  async function likesStatus(userId: string, language: NoticeLanguage) {
    const at = now();
    const allowance = await drawAllowance(db, userId, config, at);
    const [fairness, posts, draws, days] = await Promise.all([
      fairnessView(db, userId, at),
      listPosts(db, { userId, language, at }),
      listDraws(db, userId, allowance.day, at),
      drawDays(db, userId, RECORDS_MAX + 1),
    ]);
    return {
      day: allowance.day,
      fairness,
      likesToday: allowance.likesToday,
      likesPerDraw: config.likesPerDraw,
      drawsPerDay: config.drawsPerDay,
      streak: allowance.streak,
      streakDaysForDraw: config.streakDaysForDraw,
      earned: allowance.earned,
      used: draws.length,
      asset: config.asset,
      prizes: config.prizes.map((p) => ({ weight: p.weight, amountMinor: p.amountMinor.toString() })),
      posts: posts.map((p) => ({ ...p, publishAt: p.publishAt.toISOString() })),
      draws,
      pastDays: days.filter((d) => d !== allowance.day).slice(0, RECORDS_MAX),
    };
  }

  async function lotteryDay(userId: string, day: string) {
    const draws = await listDraws(db, userId, day, now());
    if (draws.length === 0) throw new NotFoundError('No draws of yours on that day');
    return { day, userId, draws };
  }

  async function inviteStatus(userId: string) {
    const at = now();
    const [code, invitations] = await Promise.all([
      inviteCodeOf(db, userId, at),
      listInvitations(db, userId, RECORDS_MAX),
    ]);
    return {
      code,
      asset: config.asset,
      rewardMinor: config.inviteRewardMinor.toString(),
      qualifyingMinor: config.inviteQualifyingMinor.toString(),
      holdHours: Math.ceil(config.claimAfterMs / 3_600_000),
      invitations: invitations.map((i) => ({
        invitee: i.invitee,
        registeredAt: i.registeredAt.toISOString(),
        status: i.status,
        rewardAsset: i.rewardAsset,
        rewardMinor: i.rewardMinor,
        releaseAt: i.releaseAt ? i.releaseAt.toISOString() : null,
      })),
    };
  }

  return {
    signStatus,
    claim: async (userId: string, signRecordId: string) =>
      claimOut(await claimRewards(db, { userId, signRecordId, config, at: now() })),
    deliver: (userId: string) => deliverClaims(db, { userId, config, at: now() }),
    likesStatus,
    like: (userId: string, announcementId: string) => likePost(db, { userId, announcementId, at: now() }),
    draw: (userId: string) => draw(db, { userId, config, at: now() }),
    setClientSeed: (userId: string, body: { clientSeed: string; commitment: string; prizeTableHash?: string }) =>
      setClientSeed(db, {
        userId,
        clientSeed: body.clientSeed,
        commitment: body.commitment,
        prizeTableHash: prizeTableHashOf(config.prizes),
        seenPrizeTableHash: body.prizeTableHash,
        at: now(),
      }),
    lotteryDay,
    inviteStatus,
  };
}

function claimOut(c: Awaited<ReturnType<typeof listClaims>>[number]) {
  return {
    id: c.id,
    asset: c.asset,
    amountMinor: c.amountMinor,
    address: c.address,
    claimedAt: c.claimedAt.toISOString(),
    delivered: c.delivered,
    deliveredAt: c.deliveredAt ? c.deliveredAt.toISOString() : null,
  };
}
