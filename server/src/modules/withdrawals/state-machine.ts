/**
 * Withdrawal states and the only moves between them. This table is the code's one copy; migration
 * 0008's trigger `withdrawals_transition` is the database's (withdrawals.state-machine.test.ts checks
 * that both refuse exactly the same moves).
 */
export const withdrawalStates = [
  'in_review',
  'review_approved',
  'review_rejected',
  'transfer_in_progress',
  'transfer_successful',
  'transfer_failed',
] as const;
export type WithdrawalState = (typeof withdrawalStates)[number];

export const withdrawalTransitions: Readonly<Record<WithdrawalState, readonly WithdrawalState[]>> = {
  in_review: ['review_approved', 'review_rejected'],
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
  constructor(
    readonly from: string,
    readonly to: string,
  ) {
    super(`withdrawal cannot move from ${from} to ${to}`);
    this.name = 'IllegalTransitionError';
  }
}

export function assertTransition(from: WithdrawalState, to: WithdrawalState): void {
  if (!canTransition(from, to)) throw new IllegalTransitionError(from, to);
}

export function isWithdrawalState(value: string): value is WithdrawalState {
  return (withdrawalStates as readonly string[]).includes(value);
}
