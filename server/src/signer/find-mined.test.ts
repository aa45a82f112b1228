import type { PublicClient } from 'viem';
import { describe, expect, it } from 'vitest';
import type { Attempt } from './repository.ts';
import { findMined } from './signer-settle.ts';
import type { SignerContext } from './signer-types.ts';

/**
 * Review of issue 37, MED 3: the receipt, the tip and the block come from separate RPC calls, which a
 * load-balanced endpoint can answer from nodes on two branches. A receipt counts confirmations only when
 * the block this client shows at its height is the receipt's block; otherwise the signer waits.
 */
const HASH = `0x${'a1'.repeat(32)}` as const;
const RECEIPT_BLOCK = `0x${'b1'.repeat(32)}` as const;
const OTHER_BLOCK = `0x${'c1'.repeat(32)}` as const;

function fakeClient(canonicalHash: `0x${string}` | null): PublicClient {
  return {
    getTransactionReceipt: async () => ({
      transactionHash: HASH,
      blockNumber: 100n,
      blockHash: RECEIPT_BLOCK,
      status: 'success',
    }),
    getBlockNumber: async () => 109n,
    getBlock: async () => {
      if (canonicalHash === null) throw new Error('block not found');
      return { number: 100n, hash: canonicalHash };
    },
  } as unknown as PublicClient;
}

const attempts = [{ tx_hash: HASH } as Attempt];
const ctx = {} as SignerContext;

describe('signer: confirmations of a receipt', () => {
  it('counts them when the block at the receipt height is the receipt block', async () => {
    expect((await findMined(ctx, fakeClient(RECEIPT_BLOCK), attempts))?.confirmations).toBe(10);
  });

  it('counts none when the client shows another block at that height, or none at all (wait)', async () => {
    expect((await findMined(ctx, fakeClient(OTHER_BLOCK), attempts))?.confirmations).toBe(0);
    expect((await findMined(ctx, fakeClient(null), attempts))?.confirmations).toBe(0);
  });
});
