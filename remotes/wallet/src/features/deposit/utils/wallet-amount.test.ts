import { describe, expect, it } from 'vitest';
import { walletAmount, walletAmountProblem } from './wallet-amount.ts';

describe('deposit-from-wallet amount', () => {
  it('converts the typed amount to ledger and chain units without floats', () => {
    expect(walletAmount('1.5', 6, 18)).toEqual({ ledgerMinor: 1_500_000n, chainAmount: 1_500_000_000_000_000_000n });
    expect(walletAmount('0.0000001', 6, 6)).toBeNull();
    expect(walletAmount('0', 6, 6)).toBeNull();
    expect(walletAmount('abc', 6, 6)).toBeNull();
  });

  it('checks the minimum deposit and the wallet balance', () => {
    const two = walletAmount('2', 6, 6);
    expect(walletAmountProblem(two, 1_000_000n, 5_000_000n)).toBeNull();
    expect(walletAmountProblem(two, 3_000_000n, 5_000_000n)).toBe('belowMinimum');
    expect(walletAmountProblem(two, 1_000_000n, 1_000_000n)).toBe('aboveBalance');
    expect(walletAmountProblem(null, 1n, 1n)).toBe('invalid');
  });
});
