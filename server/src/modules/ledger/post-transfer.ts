import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { IdempotencyKeyReusedError, InsufficientBalanceError } from './errors.ts';
import {
  assert,
  IDEMPOTENCY_KEY_LENGTH_MAX,
  LEG_AMOUNT_MAX_MINOR,
  LEGS_MAX,
  LEGS_MIN,
  type Leg,
  type PostResult,
  type TransferRequest,
  transferKinds,
} from './model.ts';
import { applyChanges, type BalanceChange, findTransferByKey, insertTransfer, lockAccounts } from './repository.ts';

const CHECK_VIOLATION = '23514';
const BALANCE_CONSTRAINT = 'ledger_accounts_balance_non_negative';

/** Refuses a malformed request before any SQL: these are programming errors, not user errors. */
export function assertWellFormed(request: TransferRequest): void {
  const { idempotencyKey, kind, legs } = request;
  assert(
    idempotencyKey.length >= 1 && idempotencyKey.length <= IDEMPOTENCY_KEY_LENGTH_MAX,
    `idempotency key length 1..${IDEMPOTENCY_KEY_LENGTH_MAX}`,
  );
  assert(transferKinds.includes(kind), `unknown transfer kind ${kind}`);
  assert(legs.length >= LEGS_MIN && legs.length <= LEGS_MAX, `${LEGS_MIN}..${LEGS_MAX} legs, got ${legs.length}`);
  let sumMinor = 0n;
  for (const leg of legs) {
    assert(typeof leg.amountMinor === 'bigint', 'leg amounts are bigint');
    assert(leg.amountMinor !== 0n, 'leg amounts are non-zero');
    const magnitude = leg.amountMinor < 0n ? -leg.amountMinor : leg.amountMinor;
    assert(magnitude <= LEG_AMOUNT_MAX_MINOR, 'leg amount within LEG_AMOUNT_MAX_MINOR');
    assert(/^[1-9]\d{0,18}$/.test(leg.accountId), `account id ${leg.accountId} is a positive integer`);
    sumMinor += leg.amountMinor;
  }
  assert(sumMinor === 0n, `legs sum to zero (sum ${sumMinor})`);
  assert(new Set(legs.map((l) => l.accountId)).size === legs.length, 'one leg per account');
}

const byAccount = (a: Leg, b: Leg) => (BigInt(a.accountId) < BigInt(b.accountId) ? -1 : 1);

function sameLegs(a: readonly Leg[], b: readonly Leg[]): boolean {
  if (a.length !== b.length) return false;
  const sortedA = [...a].sort(byAccount);
  const sortedB = [...b].sort(byAccount);
  return sortedA.every(
    (leg, i) => leg.accountId === sortedB[i]?.accountId && leg.amountMinor === sortedB[i]?.amountMinor,
  );
}

/**
 * Posts one double-entry transfer inside the caller's transaction `trx`.
 *
 * 1. Insert the transfer row; ON CONFLICT on the idempotency key returns the transfer already
 *    posted under that key (a retried request has exactly one effect). A concurrent poster of the
 *    same key waits on the unique index until the first commits or rolls back.
 * 2. Lock the touched accounts FOR UPDATE in ascending id order (no deadlocks between postings).
 * 3. Compute every new balance under the lock; a non-external account going below zero throws
 *    INSUFFICIENT_BALANCE (the CHECK constraint is the backstop if this code is ever wrong).
 * 4. Update the balances and append the journal entries with before/after.
 *
 * Throwing aborts the caller's transaction, so the transfer row disappears with it.
 */
export async function postTransfer(
  trx: Transaction<Database>,
  request: TransferRequest,
  now: Date,
): Promise<PostResult> {
  assertWellFormed(request);
  const inserted = await insertTransfer(trx, {
    idempotencyKey: request.idempotencyKey,
    kind: request.kind,
    createdAt: now,
    metadata: request.metadata ?? {},
  });
  if (!inserted) return existingTransfer(trx, request);

  const accounts = await lockAccounts(
    trx,
    request.legs.map((l) => l.accountId),
  );
  assert(accounts.length === request.legs.length, 'every leg names an existing account');
  const asset = accounts[0]?.asset;
  assert(
    accounts.every((a) => a.asset === asset),
    'all legs in one asset',
  );

  const changes: BalanceChange[] = accounts.map((account) => {
    const leg = request.legs.find((l) => l.accountId === account.id);
    assert(leg, 'locked account has a leg');
    const afterMinor = account.balanceMinor + leg.amountMinor;
    if (afterMinor < 0n && account.kind !== 'system_external') throw new InsufficientBalanceError(account.id);
    return { accountId: account.id, amountMinor: leg.amountMinor, beforeMinor: account.balanceMinor, afterMinor };
  });
  try {
    await applyChanges(trx, inserted.id, changes, now);
  } catch (err) {
    const pgErr = err as { code?: string; constraint?: string };
    if (pgErr.code === CHECK_VIOLATION && pgErr.constraint === BALANCE_CONSTRAINT)
      throw new InsufficientBalanceError('?');
    throw err;
  }
  return {
    created: true,
    transfer: {
      id: inserted.id,
      idempotencyKey: request.idempotencyKey,
      kind: request.kind,
      createdAt: inserted.createdAt,
      legs: request.legs.map((l) => ({ ...l })),
    },
  };
}

async function existingTransfer(trx: Transaction<Database>, request: TransferRequest): Promise<PostResult> {
  const existing = await findTransferByKey(trx, request.idempotencyKey);
  assert(existing, 'a conflicting idempotency key names a committed transfer');
  // The same key with other contents is a client bug; answering "done" would hide a lost transfer.
  if (existing.kind !== request.kind || !sameLegs(existing.legs, request.legs)) throw new IdempotencyKeyReusedError();
  return {
    created: false,
    transfer: {
      id: existing.id,
      idempotencyKey: request.idempotencyKey,
      kind: existing.kind,
      createdAt: existing.createdAt,
      legs: existing.legs,
    },
  };
}
