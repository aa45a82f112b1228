import type { Generated } from 'kysely';
import type { WithdrawalState } from '../modules/withdrawals/state-machine.ts';

/** Withdrawal review with four eyes (migration 0095); `Database` in schema.ts extends it. */
export interface WithdrawalReviewDatabase {
  withdrawal_decisions: WithdrawalDecisionsTable;
}

/** One operator decision on a withdrawal, append-only (withdrawals/four-eyes.ts). */
export interface WithdrawalDecisionsTable {
  id: Generated<string>;
  withdrawal_id: string;
  /** References operators (migration 0105). */
  operator_id: string;
  operator_name: string;
  decision: 'approve' | 'second_look' | 'reject';
  /** The withdrawal's state right after the decision. */
  state_after: WithdrawalState;
  reason: string | null;
  /** NUMERIC(78,0): USD cents at the review-time price; null when there was none (fail closed). */
  value_usd_cents: string | null;
  /** NUMERIC(78,0): the second-approval value in force at the decision. */
  threshold_usd_cents: string | null;
  /** Why two approvals were needed; null when one sufficed (or for a reject). */
  four_eyes_because: 'above_threshold' | 'price_unavailable' | 'second_look' | null;
  decided_at: Date;
}
