import type { Hex, PublicClient } from 'viem';
import type { SweepAttemptRow } from '../modules/custody/sweep-attempts.ts';
import { noteSweepBroadcast, type SweepRow } from '../modules/custody/sweeps-repository.ts';
import { sendRecorded } from './signer-settle.ts';
import type { BroadcastOutcome, SignerContext } from './signer-types.ts';

/**
 * The signed attempts of one top-up or sweep, one shape for both tables: attempt 0 is the row of
 * sweep_transactions (its first signing), 1.. its fee-bumped replacements (sweep_attempts). All of them
 * carry the same nonce, so at most one is ever mined.
 */
export interface SweepTry {
  attempt: number;
  /** The id of the row (attempt 0) or of the replacement. */
  id: string;
  txHash: string;
  raw: string;
  chainAmount: bigint;
  gasPriceWei: bigint;
  /** When a node first took these bytes (null: never yet). */
  broadcastAt: Date | null;
  /** The last broadcast's refusal (null: taken); a price refusal makes a replacement due at once. */
  lastError: string | null;
}

export function triesOf(row: SweepRow, replacements: readonly SweepAttemptRow[]): SweepTry[] {
  return [firstTry(row), ...replacements.map(tryOfAttempt)];
}

/** Attempt 0: the row's first signing. */
export function firstTry(row: SweepRow): SweepTry {
  return {
    attempt: 0,
    id: row.id,
    txHash: row.tx_hash,
    raw: row.raw_tx,
    chainAmount: BigInt(row.chain_amount),
    gasPriceWei: BigInt(row.gas_price_wei),
    broadcastAt: row.broadcast_at,
    lastError: row.last_error,
  };
}

export function tryOfAttempt(a: SweepAttemptRow): SweepTry {
  return {
    attempt: a.attempt,
    id: a.id,
    txHash: a.tx_hash,
    raw: a.raw_tx,
    chainAmount: BigInt(a.chain_amount),
    gasPriceWei: BigInt(a.gas_price_wei),
    broadcastAt: a.broadcast_at,
    lastError: a.last_error,
  };
}

/** Sends an attempt's recorded bytes (fenced, like a withdrawal) and notes the node's answer on its row. */
export async function sendTry(ctx: SignerContext, client: PublicClient, t: SweepTry): Promise<BroadcastOutcome> {
  const sent = await sendRecorded(ctx, client, t.raw as Hex);
  // The node holds these bytes already, or a sibling was mined: the receipt settles the row next tick.
  const message = sent.outcome === 'failed' ? sent.message : null;
  const table = t.attempt === 0 ? 'sweep_transactions' : 'sweep_attempts';
  await noteSweepBroadcast(ctx.db, table, t.id, message, ctx.now());
  if (message) ctx.log('sweep broadcast failed; will retry', { id: t.id, attempt: t.attempt, error: message });
  return sent.outcome;
}
