import { parseAmount } from '@cw/shared-state/money';

/**
 * A typed deposit amount in the ledger's minor unit and in the chain's unit (the token's or the
 * native coin's decimals; the chain has at least the ledger's). Null when it is not an amount of the
 * coin (too many decimals, not a number, zero).
 */
export function walletAmount(
  text: string,
  ledgerDecimals: number,
  chainDecimals: number,
): { ledgerMinor: bigint; chainAmount: bigint } | null {
  if (chainDecimals < ledgerDecimals) return null;
  const ledgerMinor = parseAmount(text, ledgerDecimals);
  if (ledgerMinor === null || ledgerMinor <= 0n) return null;
  return { ledgerMinor, chainAmount: ledgerMinor * 10n ** BigInt(chainDecimals - ledgerDecimals) };
}

export type WalletAmountProblem = 'invalid' | 'belowMinimum' | 'aboveBalance' | null;

export function walletAmountProblem(
  amount: ReturnType<typeof walletAmount>,
  minDepositMinor: bigint,
  walletBalance: bigint | null,
): WalletAmountProblem {
  if (!amount) return 'invalid';
  if (amount.ledgerMinor < minDepositMinor) return 'belowMinimum';
  if (walletBalance !== null && amount.chainAmount > walletBalance) return 'aboveBalance';
  return null;
}
