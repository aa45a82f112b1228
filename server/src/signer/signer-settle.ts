import type { Hex, PublicClient } from 'viem';
import { toChainUnits } from '../modules/catalogue/catalogue.ts';
import type { EvmNetwork } from '../modules/catalogue/chains-file.ts';
import { bookHotWalletOut } from '../modules/custody/custody-book.ts';
import { LeaseLostError } from '../modules/leases/lease.ts';
import { markTransferFailed, markTransferSuccessful, showTxHash } from '../modules/withdrawals/signing.ts';
import { receiptConfirmations } from './receipt-confirmations.ts';
import { type Attempt, markMined, noteBroadcast } from './repository.ts';
import {
  type BroadcastOutcome,
  classifyBroadcastError,
  type MinedAttempt,
  type SignerContext,
  type TickResult,
} from './signer-types.ts';

/** Broadcasting recorded bytes, and settling a withdrawal by whichever attempt of its nonce was mined. */

/** Broadcasts one recorded attempt's bytes and notes the answer on its row. */
export async function broadcast(
  ctx: SignerContext,
  client: PublicClient,
  attempt: { id: string; raw_tx: string },
): Promise<BroadcastOutcome> {
  const { db, now, log } = ctx;
  const { outcome, message } = await sendRecorded(ctx, client, attempt.raw_tx as Hex);
  await noteBroadcast(db, attempt.id, outcome === 'accepted' || outcome === 'known' ? null : message, now());
  if (outcome === 'failed') log('broadcast failed; will retry', { signerTransactionId: attempt.id, error: message });
  return outcome;
}

/** Sends recorded bytes (fenced) and classifies the node's answer; a lost lease is thrown, never classified. */
export async function sendRecorded(
  ctx: SignerContext,
  client: PublicClient,
  raw: Hex,
): Promise<{ outcome: BroadcastOutcome; message: string | null }> {
  try {
    await sendFenced(ctx, client, raw);
    return { outcome: 'accepted', message: null };
  } catch (err) {
    if (err instanceof LeaseLostError) throw err;
    const message = String((err as Error).message ?? err).slice(0, 500);
    return { outcome: classifyBroadcastError(message), message };
  }
}

/**
 * Sends recorded bytes. Under a lease the send happens inside a transaction that fenced first: the
 * lease row stays share-locked until the node has answered, so no successor can take over between the
 * check and the broadcast.
 */
async function sendFenced(ctx: SignerContext, client: PublicClient, raw: Hex): Promise<void> {
  const fence = ctx.options.fence;
  if (!fence) {
    await client.sendRawTransaction({ serializedTransaction: raw });
    return;
  }
  await ctx.db.transaction().execute(async (trx) => {
    await fence(trx);
    await client.sendRawTransaction({ serializedTransaction: raw });
  });
}

/** The receipt of whichever attempt was mined (they share a nonce: at most one exists), with its confirmations. */
export async function findMined(
  _ctx: SignerContext,
  client: PublicClient,
  attempts: readonly Attempt[],
): Promise<MinedAttempt | undefined> {
  for (const attempt of [...attempts].reverse()) {
    const receipt = await client.getTransactionReceipt({ hash: attempt.tx_hash as Hex }).catch(() => undefined);
    if (!receipt) continue;
    return { attempt, receipt, confirmations: await receiptConfirmations(client, receipt) };
  }
  return undefined;
}

/**
 * Settles (or fails) the withdrawal by the mined attempt, exactly once; the other attempts become
 * replaced. Only once the receipt has the network's confirmations: before that a reorg can drop it and
 * the same signed bytes land on the other branch with the other outcome (paid after an unlock, or
 * booked as paid while reverted). Until then nothing is settled, replaced or rebroadcast.
 */
export async function settle(ctx: SignerContext, mined: MinedAttempt, result: TickResult): Promise<void> {
  const { db, now, log } = ctx;
  const { attempt, receipt } = mined;
  const needed = ctx.options.confirmations?.(attempt.network as EvmNetwork) ?? 1;
  if (mined.confirmations < needed) {
    result.awaitingConfirmations += 1;
    return;
  }
  const ok = receipt.status === 'success';
  // An operator's cancel mined at the nonce (signer-cancel.ts): the withdrawal's bytes can never be mined now.
  const cancelled = attempt.kind === 'cancel';
  const paid = ok && !cancelled;
  const done = await db.transaction().execute(async (trx) => {
    await ctx.options.fence?.(trx);
    const at = now();
    if (!(await markMined(trx, attempt, { ok, blockNumber: receipt.blockNumber }, at))) return false;
    // The user's and the ledger's hash is the one on chain, which may be an earlier attempt (a cancel pays nobody).
    if (!cancelled) await showTxHash(trx, attempt.withdrawal_id, attempt.tx_hash);
    const w = paid
      ? await markTransferSuccessful(trx, attempt.withdrawal_id, at)
      : await markTransferFailed(
          trx,
          attempt.withdrawal_id,
          cancelled ? 'nonce cancelled by an operator' : 'transaction reverted on chain',
          at,
        );
    // The custody book: the coins left the hot wallet (unless it reverted), and the gas in any case.
    await bookHotWalletOut(
      trx,
      {
        key: `custody:withdrawal:${attempt.withdrawal_id}`,
        network: w.network,
        coin: w.coin,
        chainAmount: paid ? toChainUnits(w.coin, w.network, BigInt(w.arrival_minor)) : 0n,
        feeWei: receipt.gasUsed * receipt.effectiveGasPrice,
        minedBlock: receipt.blockNumber,
      },
      { withdrawalId: attempt.withdrawal_id, txHash: attempt.tx_hash },
      at,
    );
    return true;
  });
  if (!done) return;
  if (paid) result.settled += 1;
  else result.failed += 1;
  log(paid ? 'withdrawal settled' : cancelled ? 'withdrawal nonce cancelled' : 'withdrawal reverted', {
    withdrawalId: attempt.withdrawal_id,
    txHash: attempt.tx_hash,
    attempt: attempt.attempt,
  });
}

/**
 * A broadcast answered "nonce too low": one of the attempts was mined (possibly between our receipt
 * look-up and the broadcast). Settle by its receipt; without one (a lagging node, or a transaction
 * from this key that we never recorded) wait for the next tick and say so.
 */
export async function onNonceUsed(
  ctx: SignerContext,
  client: PublicClient,
  attempts: readonly Attempt[],
  result: TickResult,
) {
  const { log, findMined, settle } = ctx;
  const mined = await findMined(client, attempts);
  if (mined) return settle(mined, result);
  log('nonce used on chain but no recorded attempt has a receipt yet', {
    withdrawalId: attempts[0]?.withdrawal_id,
    nonce: attempts[0]?.nonce,
  });
}

/** Rebroadcasts the newest attempt; when a node refuses it, the older ones (so one stays in the mempool). */
export async function rebroadcast(
  ctx: SignerContext,
  client: PublicClient,
  attempts: readonly Attempt[],
): Promise<BroadcastOutcome> {
  const { broadcast } = ctx;
  let outcome: BroadcastOutcome = 'failed';
  for (const attempt of [...attempts].reverse()) {
    outcome = await broadcast(client, attempt);
    if (outcome !== 'failed') return outcome;
  }
  return outcome;
}
