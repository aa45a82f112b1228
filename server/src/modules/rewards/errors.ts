import { AppError } from '../../errors/app-error.ts';

/** The rewards programme's refusals, one class each (codes and statuses in errors/codes.ts). */
export class WalletNotBoundError extends AppError {
  constructor() {
    super('WALLET_NOT_BOUND', 'Name one of your confirmed check-ins (the wallet you checked in with)');
    this.name = 'WalletNotBoundError';
  }
}

export class ClaimTooEarlyError extends AppError {
  constructor(retryAfterSeconds: number) {
    super('CLAIM_TOO_EARLY', 'Rewards can be claimed 24 hours after the check-in', {
      details: { retryAfterSeconds },
    });
    this.name = 'ClaimTooEarlyError';
  }
}

export class RewardTooSmallError extends AppError {
  constructor(minMinor: bigint) {
    super('REWARD_TOO_SMALL', `The claimable reward is below the minimum of ${minMinor} minor units`);
    this.name = 'RewardTooSmallError';
  }
}

export class RewardZeroError extends AppError {
  constructor() {
    super('REWARD_ZERO', 'There is no reward to claim or deliver');
    this.name = 'RewardZeroError';
  }
}

export class StreakRequiredError extends AppError {
  constructor(daysNeeded: number, streak: number) {
    super('STREAK_REQUIRED', `Delivery needs ${daysNeeded} consecutive check-in days (streak: ${streak})`, {
      details: { limit: daysNeeded },
    });
    this.name = 'StreakRequiredError';
  }
}

export class NoMoreDrawsError extends AppError {
  constructor() {
    super('NO_MORE_DRAWS', 'No draws left today');
    this.name = 'NoMoreDrawsError';
  }
}

export class DrawFailedError extends AppError {
  constructor(cause?: unknown) {
    super('DRAW_FAILED', 'The draw could not be made; nothing was booked', cause === undefined ? undefined : { cause });
    this.name = 'DrawFailedError';
  }
}

export class ClientSeedRequiredError extends AppError {
  constructor() {
    super('CLIENT_SEED_REQUIRED', 'Set a client seed (after seeing the next commitment) before drawing');
    this.name = 'ClientSeedRequiredError';
  }
}

export class PrizeTableChangedError extends AppError {
  constructor() {
    super('PRIZE_TABLE_CHANGED', 'The prizes changed since your client seed was set: set a new client seed to draw');
    this.name = 'PrizeTableChangedError';
  }
}

export class InviteCodeInvalidError extends AppError {
  constructor() {
    super('INVITE_CODE_INVALID', 'This invite code is not valid');
    this.name = 'InviteCodeInvalidError';
  }
}
