import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { IdempotencyKeyReusedError, InsufficientBalanceError } from './errors.ts';
import {
  type AccountRef,
  assert,
  IDEMPOTENCY_KEY_LENGTH_MAX,
  LEG_AMOUNT_MAX_MINOR,
  LEGS_MAX,
  LEGS_MIN,
  type Leg,
  type PostResult,
  type TransferKind,
  type TransferRequest,
  transferKinds,
} from './model.ts';
import { type PostedTransfer, postLegs, postRefLegs } from './repository.ts';

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

/** SQLSTATEs raised by `ledger_post` / `ledger_account_ids` (migration 0011). */
const LEDGER_INSUFFICIENT = 'LG001';
const LEDGER_KEY_REUSED = 'LG002';
const LEDGER_MALFORMED = 'LG003';

/** The database's refusals as domain errors; anything else is passed through unchanged. */
function domainError(err: unknown): unknown {
  const pgErr = err as { code?: string; constraint?: string; detail?: string; message?: string };
  switch (pgErr.code) {
    case LEDGER_INSUFFICIENT:
      return new InsufficientBalanceError(pgErr.detail ?? '?');
    case LEDGER_KEY_REUSED:
      // The same key with other contents is a client bug; answering "done" would hide a lost transfer.
      return new IdempotencyKeyReusedError();
    case LEDGER_MALFORMED:
      return new Error(`ledger assertion failed: ${pgErr.message}`, { cause: err });
    case CHECK_VIOLATION:
      // The CHECK constraint is the backstop should ledger_post's own test ever be wrong.
      return pgErr.constraint === BALANCE_CONSTRAINT ? new InsufficientBalanceError('?') : err;
    default:
      return err;
  }
}

async function posting<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    throw domainError(err);
  }
}

const byAccount = (a: Leg, b: Leg) => (BigInt(a.accountId) < BigInt(b.accountId) ? -1 : 1);

/** The result of a posting, legs as requested (a repeat lists them by account, as stored). */
export function toPostResult(request: TransferRequest, posted: PostedTransfer): PostResult {
  // An earlier transfer under the key has exactly these legs (ledger_post compared them), listed by account.
  const legs = request.legs.map((l) => ({ ...l }));
  return {
    created: posted.created,
    transfer: {
      id: posted.transferId,
      idempotencyKey: request.idempotencyKey,
      kind: request.kind,
      createdAt: posted.createdAt,
      legs: posted.created ? legs : legs.sort(byAccount),
    },
  };
}

/**
 * Posts one double-entry transfer inside the caller's transaction `trx`, in ONE round trip
 * (the SQL function `ledger_post`, migration 0011):
 *
 * 1. Insert the transfer row; ON CONFLICT on the idempotency key answers with the transfer already
 *    posted under that key when its kind and legs are the same (a retried request has exactly one
 *    effect), and refuses other contents with IDEMPOTENCY_KEY_REUSED. A concurrent poster of the
 *    same key waits on the unique index until the first commits or rolls back.
 * 2. Lock the touched accounts FOR UPDATE in ascending id order (no deadlocks between postings).
 * 3. Under the lock, refuse a non-external account going below zero (INSUFFICIENT_BALANCE; the
 *    CHECK constraint is the backstop).
 * 4. Update the balances and append the journal entries with before/after in one statement.
 *
 * A refusal raises in PostgreSQL, which aborts the caller's transaction: the transfer row
 * disappears with it, and the key stays free.
 */
export async function postTransfer(
  trx: Transaction<Database>,
  request: TransferRequest,
  now: Date,
): Promise<PostResult> {
  assertWellFormed(request);
  const posted = await posting(() =>
    postLegs(trx, {
      idempotencyKey: request.idempotencyKey,
      kind: request.kind,
      createdAt: now,
      metadata: request.metadata ?? {},
      accountIds: request.legs.map((l) => l.accountId),
      amountsMinor: request.legs.map((l) => l.amountMinor),
    }),
  );
  return toPostResult(request, posted);
}

/** A leg on an account named by (kind, user, asset) rather than by id. */
export interface RefLeg {
  account: AccountRef;
  amountMinor: bigint;
}

export interface RefTransferRequest {
  idempotencyKey: string;
  kind: TransferKind;
  legs: readonly RefLeg[];
  metadata?: Record<string, unknown>;
}

const refKey = (r: AccountRef) => `${r.kind}|${r.userId ?? ''}|${r.asset}`;

/**
 * postTransfer on accounts named by reference, created on first use, still ONE round trip:
 * `ledger_account_ids` resolves the references (creating missing accounts in one fixed order) and
 * feeds `ledger_post` in the same statement.
 */
export async function postTransferToAccounts(
  trx: Transaction<Database>,
  request: RefTransferRequest,
  now: Date,
): Promise<PostResult> {
  // The id check of assertWellFormed does not apply yet; the rest does (placeholder ids stand in).
  assertWellFormed({
    ...request,
    legs: request.legs.map((l, i) => ({ accountId: String(i + 1), amountMinor: l.amountMinor })),
  });
  assert(new Set(request.legs.map((l) => refKey(l.account))).size === request.legs.length, 'one leg per account');
  const posted = await posting(() =>
    postRefLegs(trx, {
      idempotencyKey: request.idempotencyKey,
      kind: request.kind,
      createdAt: now,
      metadata: request.metadata ?? {},
      accounts: request.legs.map((l) => l.account),
      amountsMinor: request.legs.map((l) => l.amountMinor),
    }),
  );
  assert(posted.accountIds.length === request.legs.length, 'every reference resolved to an account');
  const legs = request.legs.map((l, i) => ({ accountId: posted.accountIds[i] ?? '', amountMinor: l.amountMinor }));
  return toPostResult({ ...request, legs }, posted);
}
