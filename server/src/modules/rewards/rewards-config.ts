import { ConfigError } from '../../config.ts';
import { type CoinCode, coinDecimals, isCoinCode, minor } from '../catalogue/catalogue.ts';

/**
 * The rewards programme's numbers: data, not code. Every value has a default that makes the local
 * programme usable and can be set from the environment (REWARDS_*, LIKES_PER_DRAW, ...).
 */
export interface RewardsConfig {
  /** The asset every reward is paid in. */
  asset: CoinCode;
  /** Reward of the k-th consecutive day of a streak (index k-1); the last value repeats after it. */
  scheduleMinor: readonly bigint[];
  /** Smallest claimable total ("reward too small ..."). */
  claimMinMinor: bigint;
  /** A sign's reward becomes claimable this long after the sign ("return after 24 hours"). */
  claimAfterMs: number;
  /** Consecutive UTC days of signs needed before claimed rewards are delivered. */
  deliveryStreakDays: number;
  /** Confirmations before a check-in counts (1: the block that holds it). */
  checkInConfirmations: number;
  likesPerDraw: number;
  drawsPerDay: number;
  /** A check-in streak of this many days earns one bonus draw a day. */
  streakDaysForDraw: number;
  /** Lottery prizes: weight and amount (0: no prize). */
  prizes: readonly { weight: number; amountMinor: bigint }[];
  /** Paid to the inviter when an invitee's qualifying deposit is credited; 0: no reward. */
  inviteRewardMinor: bigint;
  /**
   * The smallest single credited deposit of `asset` that qualifies an invitee (INVITE_QUALIFYING_DEPOSIT,
   * default 10x the invite reward, never below it): a dust deposit (the minimum is 0.001 USDT) must not
   * earn the inviter 1000x its cost from fake accounts.
   */
  inviteQualifyingMinor: bigint;
  /** Fund system_rewards from system_external at start (development only, like convert liquidity). */
  seedPoolMinor: bigint;
}

const DAY_MS = 86_400_000;
/**
 * Days looked back when counting a streak (sign-repository.ts, claims.ts): longer than any reward
 * schedule, and the bound of STREAK_DAYS_FOR_DRAW (a longer streak could never be counted).
 */
export const STREAK_LOOKBACK_DAYS = 62;
/** The default qualifying deposit, in invite rewards. */
const INVITE_QUALIFYING_FACTOR = 10n;

/** A bad setting stops the start with the config's own error (named, no stack trace). */
function invalid(message: string): never {
  throw new ConfigError([message]);
}

function amounts(key: string, text: string, asset: CoinCode): bigint[] {
  return text.split(',').map((part) => {
    try {
      return minor(part.trim(), coinDecimals(asset));
    } catch {
      return invalid(`${key} must be amounts of ${asset} (got ${JSON.stringify(part.trim())})`);
    }
  });
}

function positiveInt(env: NodeJS.ProcessEnv, key: string, fallback: number, max: number): number {
  const raw = env[key]?.trim();
  if (!raw) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > max) invalid(`${key} must be an integer 1..${max}`);
  return n;
}

/** Development defaults, USDT: 0.1 rising to 1 over a 7-day streak. */
export function rewardsConfigFromEnv(env: NodeJS.ProcessEnv = process.env): RewardsConfig {
  const asset = (env.REWARDS_ASSET?.trim() || 'USDT') as CoinCode;
  if (!isCoinCode(asset)) invalid('REWARDS_ASSET must be a catalogue coin');
  const scheduleMinor = amounts('REWARDS_SCHEDULE', env.REWARDS_SCHEDULE?.trim() || '0.1,0.1,0.2,0.2,0.3,0.5,1', asset);
  if (scheduleMinor.length > 31 || scheduleMinor.some((a) => a <= 0n)) {
    invalid('REWARDS_SCHEDULE must be 1..31 positive amounts');
  }
  const [claimMinMinor = 0n] = amounts('REWARDS_CLAIM_MIN', env.REWARDS_CLAIM_MIN?.trim() || '0.2', asset);
  const [inviteRewardMinor = 0n] = amounts('INVITE_REWARD', env.INVITE_REWARD?.trim() || '1', asset);
  const qualifyingText = env.INVITE_QUALIFYING_DEPOSIT?.trim();
  const [inviteQualifyingMinor = 0n] = qualifyingText
    ? amounts('INVITE_QUALIFYING_DEPOSIT', qualifyingText, asset)
    : [inviteRewardMinor * INVITE_QUALIFYING_FACTOR];
  if (inviteQualifyingMinor <= 0n || inviteQualifyingMinor < inviteRewardMinor)
    invalid('INVITE_QUALIFYING_DEPOSIT must be positive and at least INVITE_REWARD');
  const seed = env.NODE_ENV === 'production' ? '0' : env.REWARDS_SEED_POOL?.trim() || '100000';
  const [seedPoolMinor = 0n] = amounts('REWARDS_SEED_POOL', seed, asset);
  const unit = 10n ** BigInt(coinDecimals(asset));
  return {
    asset,
    scheduleMinor,
    claimMinMinor,
    claimAfterMs: DAY_MS,
    deliveryStreakDays: 7,
    checkInConfirmations: positiveInt(env, 'CHECKIN_CONFIRMATIONS', 1, 1000),
    likesPerDraw: positiveInt(env, 'LIKES_PER_DRAW', 3, 100),
    drawsPerDay: positiveInt(env, 'DRAWS_PER_DAY', 3, 50),
    streakDaysForDraw: positiveInt(env, 'STREAK_DAYS_FOR_DRAW', 3, STREAK_LOOKBACK_DAYS),
    prizes: [
      { weight: 55, amountMinor: 0n },
      { weight: 30, amountMinor: unit / 100n },
      { weight: 12, amountMinor: unit / 10n },
      { weight: 3, amountMinor: unit },
    ],
    inviteRewardMinor,
    inviteQualifyingMinor,
    seedPoolMinor,
  };
}

/** The reward of the given day of a streak (1-based). */
export function rewardForStreakDay(config: RewardsConfig, streakDay: number): bigint {
  const { scheduleMinor } = config;
  const index = Math.min(Math.max(streakDay, 1), scheduleMinor.length) - 1;
  return scheduleMinor[index] as bigint;
}
