/**
 * The reasons a buy or sell ends that the user is told in their language: those the payment provider
 * sends (the sandbox provider emits the first five) and those the server records itself. A reason may
 * carry a detail after a colon (`provider_terms_mismatch:fiat_amount`): the code before it is what is
 * translated. Anything else is shown as sent, so a new provider reason is never hidden.
 */
export const KNOWN_REASONS = [
  'card_declined',
  'delivery_failed',
  'deposit_expired',
  'payout_rejected_by_bank',
  'cancelled_by_user',
  'checkout_not_completed',
  'transfer_failed',
  'provider_failed',
  'provider_address_invalid',
  'provider_terms_mismatch',
  'withdrawals_frozen',
  'failed_after_transfer_signed',
  'refund_deposit_matched',
  'cancelled_in_app',
  'sessions_ended',
  'account_frozen',
  'payout_method_hold',
  'payout_method_inactive',
] as const;
export type KnownReason = (typeof KNOWN_REASONS)[number];

const KNOWN: ReadonlySet<string> = new Set(KNOWN_REASONS);
/** Longer than any code the server writes; a bound on what is looked up. */
const MAX_CODE_LENGTH = 64;

/** The translatable code of a reason, or null when it is not one the app knows (shown raw). */
export function reasonCode(reason: string): KnownReason | null {
  const code = reason.split(':', 1)[0]?.trim().toLowerCase() ?? '';
  if (code.length > MAX_CODE_LENGTH || !KNOWN.has(code)) return null;
  return code as KnownReason;
}
