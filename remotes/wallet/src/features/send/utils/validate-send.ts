import { isValidAddress } from '@cw/shared-state/address';
import type { KnownErrorCode } from '@cw/shared-state/errors';
import { minusOrZero, parseAmount } from '@cw/shared-state/money';

export type SendMode = 'withdrawal' | 'send';

export interface SendInput {
  mode: SendMode;
  network: string;
  target: string;
  amountText: string;
  decimals: number;
  availableMinor: bigint;
  /** Withdrawal limits of the (coin, network) pair; sends have none but the balance. */
  limits?: { minMinor: bigint; maxMinor: bigint; feeMinor: bigint };
}

/** A problem is an error code (translated by the errors namespace) or a wallet key. */
export type SendProblem = KnownErrorCode | 'send.amountRequired' | 'send.targetRequired' | 'send.emailInvalid';

export interface SendCheck {
  target?: SendProblem;
  amount?: SendProblem;
  amountMinor: bigint;
  feeMinor: bigint;
  arrivalMinor: bigint;
  recipientKind: 'email' | 'address';
}

/** Networks a user's deposit address may be on; a transfer needs no network choice. */
const TRANSFER_NETWORKS = ['ethereum', 'bsc', 'tron', 'bitcoin', 'dogecoin'] as const;

const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,189}\.[^\s@]{2,63}$/;

function recipientKind(target: string): 'email' | 'address' {
  return target.includes('@') ? 'email' : 'address';
}

/**
 * The checks the server also makes, done before the order is confirmed:
 * address per network (or the recipient of a send), amount within the
 * pair's minimum and maximum and at most the available balance.
 */
export function validateSend(input: SendInput): SendCheck {
  const target = input.target.trim();
  const kind = recipientKind(target);
  const amount = parseAmount(input.amountText, input.decimals);
  const feeMinor = input.mode === 'withdrawal' ? (input.limits?.feeMinor ?? 0n) : 0n;
  const result: SendCheck = {
    amountMinor: amount ?? 0n,
    feeMinor,
    arrivalMinor: minusOrZero(amount ?? 0n, feeMinor),
    recipientKind: kind,
  };

  if (target === '') result.target = 'send.targetRequired';
  else if (input.mode === 'withdrawal') {
    if (!isValidAddress(input.network, target)) result.target = 'ADDRESS_INVALID';
  } else if (kind === 'email') {
    if (!EMAIL.test(target)) result.target = 'send.emailInvalid';
  } else if (!TRANSFER_NETWORKS.some((network) => isValidAddress(network, target))) {
    // A deposit address of another user, on whichever network its form says (the server finds it).
    result.target = 'ADDRESS_INVALID';
  }

  if (amount === null || amount === 0n) result.amount = 'send.amountRequired';
  else if (input.mode === 'withdrawal' && input.limits && amount < input.limits.minMinor)
    result.amount = 'AMOUNT_BELOW_MINIMUM';
  else if (input.mode === 'withdrawal' && input.limits && amount > input.limits.maxMinor)
    result.amount = 'AMOUNT_ABOVE_MAXIMUM';
  else if (amount > input.availableMinor) result.amount = 'AMOUNT_EXCEEDS_AVAILABLE';
  return result;
}

/** What "max" fills in: the available balance, capped by the withdrawal maximum. */
export function maxAmountMinor(mode: SendMode, availableMinor: bigint, maxMinor?: bigint): bigint {
  if (mode === 'withdrawal' && maxMinor !== undefined && maxMinor < availableMinor) return maxMinor;
  return availableMinor;
}
