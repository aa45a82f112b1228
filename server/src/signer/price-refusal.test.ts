import type { PublicClient } from 'viem';
import { describe, expect, it } from 'vitest';
import type { Attempt } from './repository.ts';
import { followUpOne } from './signer-follow-up.ts';
import { priceRefused, type SignerContext, type TickResult } from './signer-types.ts';
import { replacementDue } from './sweep-replace.ts';
import type { SweepTry } from './sweep-tries.ts';

/**
 * A node refusing the bytes for their price never takes them, so `broadcast_at` (the replacement timer)
 * stays null; the fee must be bumped at once instead, or the nonce is dead (review of issue 37, M1).
 */
const at = new Date('2030-01-02T03:04:05.000Z');
const refusals = [
  'transaction underpriced',
  'replacement transaction underpriced',
  'fee cap less than block base fee',
  'max fee per gas less than block base fee: maxFeePerGas: 1, baseFee: 7',
];

function attempt(lastError: string | null): Attempt {
  return {
    id: '1',
    withdrawal_id: 'w1',
    attempt: 0,
    state: 'signed',
    broadcast_at: null,
    last_error: lastError,
    raw_tx: '0x',
  } as unknown as Attempt;
}

async function followUp(lastError: string | null) {
  const replaced: Attempt[] = [];
  const ctx = {
    db: {},
    now: () => at,
    replaceAfterMs: 60_000,
    maxReplacements: 32,
    findMined: async () => undefined,
    settle: async () => {},
    cancelIfAsked: async () => false,
    onNonceUsed: async () => {},
    rebroadcast: async () => 'failed' as const,
    replace: async (_c: PublicClient, latest: Attempt) => {
      replaced.push(latest);
      return false;
    },
  } as unknown as SignerContext;
  await followUpOne(ctx, {} as PublicClient, [attempt(lastError)], { rebroadcast: 0 } as TickResult);
  return replaced.length;
}

describe('a price refusal makes the replacement due now', () => {
  it.each(refusals)('withdrawal attempt refused with "%s" is replaced without waiting', async (message) => {
    expect(priceRefused(message)).toBe(true);
    expect(await followUp(message)).toBe(1);
  });

  it('any other refusal (insufficient funds) is not replaced: nothing in a mempool, no timer', async () => {
    expect(priceRefused('insufficient funds for gas * price + value')).toBe(false);
    expect(await followUp('insufficient funds for gas * price + value')).toBe(0);
  });

  it.each(refusals)('sweep attempt refused with "%s" is due for replacement', (message) => {
    const ctx = { now: () => at, replaceAfterMs: 60_000, maxReplacements: 32 } as unknown as SignerContext;
    const t: SweepTry = {
      attempt: 0,
      id: '1',
      txHash: '0x',
      raw: '0x',
      chainAmount: 1n,
      gasPriceWei: 1n,
      broadcastAt: null,
      lastError: message,
    };
    expect(replacementDue(ctx, t)).toBe(true);
    expect(replacementDue(ctx, { ...t, lastError: 'insufficient funds' })).toBe(false);
    expect(replacementDue(ctx, { ...t, attempt: 32 })).toBe(false);
  });
});
