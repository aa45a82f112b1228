import type { Address } from 'viem';
import { describe, expect, it } from 'vitest';
import { balancesAtOneBlock } from './reserves.ts';

/**
 * Reserves are read at one block (review 37b, finding 2): a sweep mined while the addresses are read
 * one by one must not count on its deposit address and again in the hot wallet.
 */
describe('reserves read at one block', () => {
  it('reads the head once and every balance at that block', async () => {
    const reads: (bigint | undefined)[] = [];
    let head = 100n;
    const client = {
      // The chain moves on after every read: only a pinned block keeps the reads consistent.
      getBlockNumber: async () => head,
      getBalance: async (a: { address: Address; blockNumber?: bigint }) => {
        reads.push(a.blockNumber);
        head += 1n;
        return 10n;
      },
      readContract: async () => 0n,
    } as unknown as Parameters<typeof balancesAtOneBlock>[0];
    const addresses = ['0x1', '0x2', '0x3'] as Address[];
    const balances = await balancesAtOneBlock(client, { tokens: {} }, 'ethereum', addresses);
    expect(balances.get('ETH')).toBe(30n);
    expect(reads).toEqual([100n, 100n, 100n]);
  });
});
