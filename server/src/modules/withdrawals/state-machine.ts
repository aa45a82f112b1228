/**
 * Withdrawal states and the only moves between them. This table is the code's one copy; the trigger
 * `withdrawals_transition` (migrations 0008, 0040, 0095) is the database's (withdrawals.state-machine.test.ts
 * checks that both refuse exactly the same moves).
 */
export const withdrawalStates = [
  'in_review',
  // Four eyes (four-eyes.ts, migration 0095): one finance approval given, a second by another operator needed.
  'awaiting_second_approval',
  'review_approved',
  'review_rejected',
  'transfer_in_progress',
  'transfer_successful',
  'transfer_failed',
] as const;
export type WithdrawalState = (typeof withdrawalStates)[number];

export const withdrawalTransitions: Readonly<Record<WithdrawalState, readonly WithdrawalState[]>> = {
  in_review: ['review_approved', 'review_rejected', 'awaiting_second_approval'],
  // -> review_approved only with two approvals by different operators (the trigger counts them too).
  awaiting_second_approval: ['review_approved', 'review_rejected'],
  // -> review_rejected: a payout cancelled before the signer took it (a failed ramp sell, migration 0040).
  review_approved: ['transfer_in_progress', 'review_rejected'],
  review_rejected: [],
  transfer_in_progress: ['transfer_successful', 'transfer_failed'],
  transfer_successful: [],
  transfer_failed: [],
};

export function canTransition(from: WithdrawalState, to: WithdrawalState): boolean {
  return withdrawalTransitions[from].includes(to);
}

export class IllegalTransitionError extends Error {
  readonly from: string;
  readonly to: string;

  constructor(from: string, to: string) {
    super(`withdrawal cannot move from ${from} to ${to}`);
    this.from = from;
    this.to = to;
    this.name = 'IllegalTransitionError';
  }
}

export function assertTransition(from: WithdrawalState, to: WithdrawalState): void {
  if (!canTransition(from, to)) throw new IllegalTransitionError(from, to);
}

export function isWithdrawalState(value: string): value is WithdrawalState {
  return (withdrawalStates as readonly string[]).includes(value);
}

/** The states a user sees: the second approval is an operator's step, shown as the review it is part of. */
export const userWithdrawalStates = [
  'in_review',
  'review_approved',
  'review_rejected',
  'transfer_in_progress',
  'transfer_successful',
  'transfer_failed',
] as const;
export type UserWithdrawalState = (typeof userWithdrawalStates)[number];

export function userVisibleState(state: WithdrawalState): UserWithdrawalState {
  return state === 'awaiting_second_approval' ? 'in_review' : state;
}

/** Waiting for an operator's decision (the review queue). */
export const reviewStates = ['in_review', 'awaiting_second_approval'] as const satisfies readonly WithdrawalState[];
export type ReviewState = (typeof reviewStates)[number];
