import type { WithdrawalState } from '../api/send.ts';

/**
 * Reasons the server itself writes (the signer, when a transfer fails), word
 * for word, and their translation keys. Any other reason is an operator's
 * free text from `ops withdrawals reject --reason`, shown as written.
 */
const MACHINE_REASONS: Readonly<Record<string, string>> = {
  'transaction reverted on chain': 'withdrawDetail.machineReason.txReverted',
};

export interface ReasonView {
  /** Translation key of the label ("Reason for rejection" or "... failure"). */
  labelKey: string;
  /** A translation key for a machine reason, else null (then `text` is shown as sent). */
  textKey: string | null;
  text: string;
}

/** How a withdrawal's reason is shown; null when it has none. */
export function reasonView(state: WithdrawalState, reason: string | null): ReasonView | null {
  const text = reason?.trim() ?? '';
  if (text === '') return null;
  return {
    labelKey: state === 'review_rejected' ? 'withdrawDetail.reasonRejected' : 'withdrawDetail.reasonFailed',
    textKey: MACHINE_REASONS[text.toLowerCase()] ?? null,
    text,
  };
}
