import type { PublicClient, TransactionReceipt } from 'viem';

/**
 * A receipt's confirmations (tip - its block + 1, its own block included), counted only when this
 * client shows the receipt's block at its height (review of issue 37, MED 3): the receipt, the tip and
 * the block are separate RPC calls, which a load-balanced endpoint can answer from nodes on two branches.
 * Otherwise (another block there, none yet, or the look-up failed) 0: the caller waits and looks again.
 */
export async function receiptConfirmations(
  client: PublicClient,
  receipt: Pick<TransactionReceipt, 'blockNumber' | 'blockHash'>,
): Promise<number> {
  // No cached tip: confirmations must count every block. Read before the block, so a block read after it
  // is at least as new as the tip counted.
  const tip = await client.getBlockNumber({ cacheTime: 0 });
  if (tip < receipt.blockNumber) return 0;
  const block = await client.getBlock({ blockNumber: receipt.blockNumber }).catch(() => undefined);
  if (!block || block.hash?.toLowerCase() !== receipt.blockHash.toLowerCase()) return 0;
  return Number(tip - receipt.blockNumber + 1n);
}
