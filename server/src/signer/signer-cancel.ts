import { type Hex, keccak256, type PublicClient, parseTransaction } from 'viem';
import { findNonceCancel, lockState } from '../modules/withdrawals/signing.ts';
import { type Attempt, insertAttempt, lockHotWallet, newestAttempt } from './repository.ts';
import { bumpFee, MAX_ATTEMPT, maxOf, NATIVE_GAS, type SignerContext } from './signer-types.ts';

/**
 * The operator's way out of a dead nonce (issue 37, item 7; withdrawals/nonce-cancel.ts): a zero-value
 * transfer from the hot wallet to itself at the withdrawal's nonce, with fees above every attempt's so
 * nodes take it as their replacement. It is recorded as the withdrawal's next attempt (kind 'cancel')
 * before it is broadcast; from then on the follow-up treats it like any attempt (rebroadcast, fee-bumped
 * while stuck), and whichever attempt of the nonce is mined settles the withdrawal (settle()): the
 * cancel fails it and unlocks the funds, the withdrawal's own bytes pay it.
 * True when a cancel was signed and broadcast now.
 */
export async function signCancelIfAsked(
  ctx: SignerContext,
  client: PublicClient,
  attempts: readonly Attempt[],
): Promise<boolean> {
  const { db, now, account, log, options, broadcast } = ctx;
  const latest = attempts[attempts.length - 1];
  if (!latest || attempts.some((a) => a.kind === 'cancel')) return false;
  const request = await findNonceCancel(db, latest.withdrawal_id);
  if (!request) return false;
  if (latest.attempt >= MAX_ATTEMPT) {
    log('ALERT: nonce cancel asked but the withdrawal has no attempt left', { withdrawalId: latest.withdrawal_id });
    return false;
  }
  if (latest.from_address.toLowerCase() !== account.address.toLowerCase()) {
    // Another hot wallet's nonce (the key was rotated): a self-transfer from this key cannot replace it.
    log('ALERT: nonce cancel asked but the attempt is from another hot wallet', {
      withdrawalId: latest.withdrawal_id,
      from: latest.from_address,
      signer: account.address,
    });
    return false;
  }
  const { nonce, chainId } = parseTransaction(latest.raw_tx as Hex);
  if (nonce === undefined || chainId === undefined) return false;
  const network = await client.estimateFeesPerGas();
  // Above the highest fee any attempt of the nonce offered: whichever a node holds, the cancel replaces it.
  const priorityFloor = maxOf(0n, ...attempts.map((a) => BigInt(a.max_priority_fee_per_gas ?? 0)));
  const feeFloor = maxOf(0n, ...attempts.map((a) => BigInt(a.max_fee_per_gas ?? 0)));
  const maxPriorityFeePerGas = maxOf(bumpFee(priorityFloor), network.maxPriorityFeePerGas);
  const maxFeePerGas = maxOf(bumpFee(feeFloor), network.maxFeePerGas, maxPriorityFeePerGas);
  if (options.maxFeePerGasCapWei !== undefined && maxFeePerGas > options.maxFeePerGasCapWei) {
    // The cap binds the cancel as every replacement (review of issue 37, LOW 6): an operator raises it.
    log('ALERT: nonce cancel would exceed the fee cap (SIGNER_MAX_FEE_PER_GAS_WEI); not signed', {
      withdrawalId: latest.withdrawal_id,
      maxFeePerGas: maxFeePerGas.toString(),
      capWei: options.maxFeePerGasCapWei.toString(),
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
      chainId,
      nonce,
      to: account.address,
      value: 0n,
      gas: NATIVE_GAS,
      maxFeePerGas,
      maxPriorityFeePerGas,
    });
    const at = now();
    return insertAttempt(trx, {
      withdrawal_id: latest.withdrawal_id,
      network: latest.network,
      chain_id: latest.chain_id,
      from_address: latest.from_address,
      nonce: latest.nonce,
      attempt: latest.attempt + 1,
      kind: 'cancel',
      tx_hash: keccak256(raw),
      raw_tx: raw,
      max_fee_per_gas: maxFeePerGas.toString(),
      max_priority_fee_per_gas: maxPriorityFeePerGas.toString(),
      state: 'signed',
      created_at: at,
      updated_at: at,
    });
  });
  if (!recorded) return false;
  log('nonce cancel signed and recorded', {
    withdrawalId: recorded.withdrawal_id,
    nonce: recorded.nonce,
    attempt: recorded.attempt,
    txHash: recorded.tx_hash,
    operator: request.operator_name,
  });
  await options.afterRecord?.(recorded.withdrawal_id, recorded.tx_hash as Hex, recorded.attempt);
  await broadcast(client, recorded);
  return true;
}
