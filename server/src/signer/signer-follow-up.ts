import type { PublicClient } from 'viem';
import type { EvmNetwork } from '../modules/catalogue/chains-file.ts';
import { type Attempt, listOpenWithdrawals, loadAttempts } from './repository.ts';
import { FOLLOW_UP_LIMIT, MAX_ATTEMPT, priceRefused, type SignerContext, type TickResult } from './signer-types.ts';

/** Recorded, unsettled attempts: settle by a receipt, replace when due, else rebroadcast. */

/** One withdrawal's recorded attempts: settle by a receipt of any, else replace when due, else rebroadcast. */
export async function followUpOne(
  ctx: SignerContext,
  client: PublicClient,
  attempts: Attempt[],
  result: TickResult,
): Promise<void> {
  const { db, now, replaceAfterMs, maxReplacements, findMined, settle, onNonceUsed, rebroadcast, replace } = ctx;
  const { cancelIfAsked } = ctx;
  const mined = await findMined(client, attempts);
  if (mined) return settle(mined, result);
  // An operator asked to cancel the nonce: the cancel is signed, recorded and broadcast; no receipt yet.
  if (await cancelIfAsked(client, attempts)) return;
  const latest = attempts[attempts.length - 1];
  if (!latest) return;
  // Due once a node has held the bytes for replaceAfterMs, or at once when nodes refuse them for their price.
  // A cancel is bumped until it gets in (up to the table's last attempt): it is the way out of the nonce.
  const waited = latest.broadcast_at !== null && now().getTime() - latest.broadcast_at.getTime() >= replaceAfterMs;
  const budget = latest.kind === 'cancel' ? MAX_ATTEMPT : maxReplacements;
  const due = latest.state === 'signed' && (waited || priceRefused(latest.last_error)) && latest.attempt < budget;
  if (due && (await replace(client, latest, result))) {
    attempts = await loadAttempts(db, latest.withdrawal_id);
  }
  const outcome = await rebroadcast(client, attempts);
  result.rebroadcast += 1;
  if (outcome === 'nonce_used') await onNonceUsed(client, attempts, result);
}

/** Withdrawals with recorded, unsettled attempts (oldest first), each followed up on its own. */
export async function followUp(ctx: SignerContext, result: TickResult): Promise<void> {
  const { db, log, clientFor, followUpOne } = ctx;
  const open = await listOpenWithdrawals(db, FOLLOW_UP_LIMIT);
  for (const w of open) {
    const client = clientFor(w.network as EvmNetwork);
    if (!client) continue;
    // One withdrawal's trouble (an RPC error, say) must not hold up the others' settlement.
    try {
      await followUpOne(client, await loadAttempts(db, w.withdrawal_id), result);
    } catch (err) {
      log('follow-up failed; will retry', {
        withdrawalId: w.withdrawal_id,
        error: String((err as Error).message ?? err),
      });
    }
  }
}
