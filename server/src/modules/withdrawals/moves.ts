import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { ConflictError, ValidationError } from '../../errors/app-error.ts';
import { appendAudit } from '../audit/repository.ts';
import { assert } from '../ledger/model.ts';
import { settleWithdrawal, unlockFunds } from '../ledger/operations.ts';
import { recordUserNotice } from '../notices/repository.ts';
import { transition, type WithdrawalRow } from './repository.ts';
import type { ReviewState } from './state-machine.ts';

type Trx = Transaction<Database>;

/** Operator and signer moves. Each takes the caller's transaction: state and money change together. */

/**
 * Who decided a review: recorded on the withdrawal's row and event and in the audit log. Required:
 * a review nobody can be held to is no review (`npm run ops -- withdrawals approve|reject --operator`).
 */
export interface Reviewer {
  operatorId: string;
  name: string;
}

function assertNamed(by: Reviewer): void {
  assert(typeof by?.name === 'string' && by.name.trim() !== '', 'a withdrawal review names its reviewer');
}

export async function rejectWithdrawal(
  trx: Trx,
  id: string,
  reason: string,
  now: Date,
  by: Reviewer,
  from: ReviewState = 'in_review',
): Promise<WithdrawalRow> {
  assertNamed(by);
  if (reason.trim() === '') throw new ValidationError('A rejection needs a reason');
  const row = await transition(
    trx,
    id,
    from,
    'review_rejected',
    { review: 'manual', reason, reviewedBy: by.name },
    now,
  );
  if (!row) throw new ConflictError('Only a withdrawal in review can be rejected');
  await appendAudit(trx, {
    event: 'withdrawal_rejected',
    at: now,
    userId: row.user_id,
    details: { withdrawalId: id, reason, operator: by.name, operatorId: by.operatorId },
  });
  await unlockFunds(
    trx,
    {
      idempotencyKey: `withdrawal:${id}:unlock`,
      userId: row.user_id,
      asset: row.coin,
      amountMinor: BigInt(row.amount_minor),
      metadata: { withdrawalId: id, reason },
    },
    now,
  );
  await recordUserNotice(
    trx,
    {
      userId: row.user_id,
      kind: 'withdrawal_rejected',
      params: { coin: row.coin, network: row.network, amountMinor: row.amount_minor, reason, withdrawalId: id },
      dedupeKey: `withdrawal:${id}:rejected`,
    },
    now,
  );
  return row;
}

/** The signer recorded a signed transaction: from now on the money is on its way. */
export async function markTransferInProgress(trx: Trx, id: string, txHash: string, now: Date): Promise<WithdrawalRow> {
  const row = await transition(trx, id, 'review_approved', 'transfer_in_progress', { txHash }, now);
  if (!row) throw new ConflictError('Only an approved withdrawal can start its transfer');
  return row;
}

/** Mined with success: the locked amount leaves the books, the fee goes to system_fees. */
export async function markTransferSuccessful(trx: Trx, id: string, now: Date): Promise<WithdrawalRow> {
  const row = await transition(trx, id, 'transfer_in_progress', 'transfer_successful', {}, now);
  if (!row) throw new ConflictError('Only a transfer in progress can succeed');
  await settleWithdrawal(
    trx,
    {
      idempotencyKey: `withdrawal:${id}:settle`,
      userId: row.user_id,
      asset: row.coin,
      amountMinor: BigInt(row.amount_minor),
      feeMinor: BigInt(row.fee_minor),
      metadata: { withdrawalId: id, txHash: row.tx_hash },
    },
    now,
  );
  await recordUserNotice(
    trx,
    {
      userId: row.user_id,
      kind: 'withdrawal_completed',
      params: {
        coin: row.coin,
        network: row.network,
        amountMinor: row.arrival_minor,
        txHash: row.tx_hash ?? '',
        withdrawalId: id,
      },
      dedupeKey: `withdrawal:${id}:completed`,
    },
    now,
  );
  return row;
}

/** Reverted on chain: the user gets the whole amount back. */
export async function markTransferFailed(trx: Trx, id: string, reason: string, now: Date): Promise<WithdrawalRow> {
  const row = await transition(trx, id, 'transfer_in_progress', 'transfer_failed', { reason }, now);
  if (!row) throw new ConflictError('Only a transfer in progress can fail');
  await unlockFunds(
    trx,
    {
      idempotencyKey: `withdrawal:${id}:unlock`,
      userId: row.user_id,
      asset: row.coin,
      amountMinor: BigInt(row.amount_minor),
      metadata: { withdrawalId: id, reason },
    },
    now,
  );
  return row;
}
