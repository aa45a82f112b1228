import { type Hex, keccak256, type PublicClient, parseTransaction } from 'viem';
import { lockState, showTxHash } from '../modules/withdrawals/signing.ts';
import { type Attempt, insertAttempt, lockHotWallet, newestAttempt } from './repository.ts';
import { bumpFee, maxOf, type SignerContext, type TickResult } from './signer-types.ts';

/** Fee-bumped replacements of a stuck attempt: same nonce, recorded before broadcast. */

/** Signs, records, then broadcasts a fee-bumped replacement of `latest` (same nonce). */
export async function replace(
  ctx: SignerContext,
  client: PublicClient,
  latest: Attempt,
  result: TickResult,
): Promise<boolean> {
  const { db, now, account, log, options } = ctx;
  const previous = parseTransaction(latest.raw_tx as Hex);
  if (previous.type !== 'eip1559' || previous.nonce === undefined || previous.chainId === undefined) return false;
  const network = await client.estimateFeesPerGas();
  const maxPriorityFeePerGas = maxOf(bumpFee(previous.maxPriorityFeePerGas ?? 0n), network.maxPriorityFeePerGas);
  const maxFeePerGas = maxOf(bumpFee(previous.maxFeePerGas ?? 0n), network.maxFeePerGas, maxPriorityFeePerGas);
  if (options.maxFeePerGasCapWei !== undefined && maxFeePerGas > options.maxFeePerGasCapWei) {
    log('replacement would exceed the fee cap; rebroadcasting instead', {
      withdrawalId: latest.withdrawal_id,
      maxFeePerGas: maxFeePerGas.toString(),
    });
    return false;
  }
  const recorded = await db.transaction().execute(async (trx) => {
    await options.fence?.(trx);
    await lockHotWallet(trx, latest.chain_id, latest.from_address);
    if ((await lockState(trx, latest.withdrawal_id)) !== 'transfer_in_progress') return undefined;
    const newest = await newestAttempt(trx, latest.withdrawal_id);
    if (newest?.attempt !== latest.attempt || newest.state !== 'signed') return undefined;
    const raw = await account.signTransaction({
      type: 'eip1559',
      chainId: previous.chainId,
      nonce: previous.nonce,
      to: previous.to,
      value: previous.value,
      data: previous.data,
      gas: previous.gas,
      accessList: previous.accessList,
      maxFeePerGas,
      maxPriorityFeePerGas,
    });
    const hash = keccak256(raw);
    const at = now();
    const row = await insertAttempt(trx, {
      withdrawal_id: latest.withdrawal_id,
      network: latest.network,
      chain_id: latest.chain_id,
      from_address: latest.from_address,
      nonce: latest.nonce,
      attempt: latest.attempt + 1,
      kind: latest.kind,
      tx_hash: hash,
      raw_tx: raw,
      max_fee_per_gas: maxFeePerGas.toString(),
      max_priority_fee_per_gas: maxPriorityFeePerGas.toString(),
      state: 'signed',
      created_at: at,
      updated_at: at,
    });
    // Shown to the user while in progress: the attempt most likely to be mined (never a cancel: it pays nobody).
    if (latest.kind !== 'cancel') await showTxHash(trx, latest.withdrawal_id, hash);
    return row;
  });
  if (!recorded) return false;
  result.replaced += 1;
  log('replacement signed and recorded', {
    withdrawalId: recorded.withdrawal_id,
    nonce: recorded.nonce,
    attempt: recorded.attempt,
    txHash: recorded.tx_hash,
    replaces: latest.tx_hash,
    maxFeePerGas: maxFeePerGas.toString(),
    maxPriorityFeePerGas: maxPriorityFeePerGas.toString(),
  });
  await options.afterRecord?.(recorded.withdrawal_id, recorded.tx_hash as Hex, recorded.attempt);
  return true;
}
