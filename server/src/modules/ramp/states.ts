/**
 * Buy/sell order states and the only moves between them. This table is the code's one copy;
 * migration 0025's trigger is the database's (ramp.states.test.ts checks both refuse the same moves).
 *
 * pending -> waiting_payment (buy) | waiting_deposit (sell) -> processing -> completed
 * failures: failed (then refunded when the provider returns the coins), expired (checkout never done).
 * refund_pending: the provider failed a sell whose coins had already left us (the payout was signed);
 * it waits for the provider's on-chain refund (refunded) or for the transfer to fail after all (failed).
 * The provider's events arrive at least once and in any order, so each state has a rank: an event
 * that would move an order back (a late "pending" after "completed") is stale and changes nothing.
 */
export const rampStates = [
  'pending',
  'waiting_payment',
  'waiting_deposit',
  'processing',
  'completed',
  'failed',
  'refunded',
  'expired',
  'refund_pending',
] as const;
export type RampState = (typeof rampStates)[number];

export const rampTransitions: Readonly<Record<RampState, readonly RampState[]>> = {
  pending: ['waiting_payment', 'waiting_deposit', 'processing', 'completed', 'failed', 'expired'],
  waiting_payment: ['processing', 'completed', 'failed', 'expired'],
  waiting_deposit: ['processing', 'completed', 'failed', 'refund_pending'],
  processing: ['completed', 'failed', 'refunded', 'refund_pending'],
  completed: [],
  // failed -> refund_pending: the repair of sells failed before 0040 although their transfer was signed.
  failed: ['refunded', 'refund_pending'],
  refunded: [],
  expired: [],
  refund_pending: ['refunded', 'failed'],
};

const rank: Readonly<Record<RampState, number>> = {
  pending: 0,
  waiting_payment: 1,
  waiting_deposit: 1,
  processing: 2,
  completed: 3,
  failed: 3,
  expired: 3,
  refund_pending: 3,
  refunded: 4,
};

export function isRampState(value: string): value is RampState {
  return (rampStates as readonly string[]).includes(value);
}

export function canTransition(from: RampState, to: RampState): boolean {
  return rampTransitions[from].includes(to);
}

/** An event for `to` reached an order already at or past it: nothing to do. */
export function isStale(from: RampState, to: RampState): boolean {
  return rank[to] <= rank[from];
}

export const isFinal = (state: RampState): boolean => rampTransitions[state].length === 0 || state === 'failed';

export class IllegalRampTransitionError extends Error {
  readonly from: string;
  readonly to: string;

  constructor(from: string, to: string) {
    super(`ramp order cannot move from ${from} to ${to}`);
    this.from = from;
    this.to = to;
    this.name = 'IllegalRampTransitionError';
  }
}
