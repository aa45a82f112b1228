import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { type CoinCode, isCoinCode } from '../catalogue/catalogue.ts';
import { type AccountRef, assert, type PostResult, type TransferKind } from './model.ts';
import { postTransferToAccounts, type RefLeg } from './post-transfer.ts';

/**
 * The money movements the wallet needs, each ONE double-entry transfer on top of postTransfer.
 * All take the caller's transaction so they can be composed with other writes atomically.
 * Each is one round trip to PostgreSQL: accounts are resolved (created on first use) and the
 * transfer posted by one statement (postTransferToAccounts).
 */

type Trx = Transaction<Database>;

interface Movement {
  idempotencyKey: string;
  asset: CoinCode;
  /** Positive, in the asset's ledger minor unit. */
  amountMinor: bigint;
  metadata?: Record<string, unknown>;
}

export interface UserMovement extends Movement {
  userId: string;
}

export interface WithdrawalSettlement extends UserMovement {
  /** Part of amountMinor kept as the network fee (to system_fees); 0 <= fee < amount. */
  feeMinor: bigint;
}

export interface InternalSend extends Movement {
  fromUserId: string;
  toUserId: string;
}

const userAccount = (
  kind: 'user_available' | 'user_locked' | 'user_rewards',
  userId: string,
  asset: CoinCode,
): AccountRef => ({
  kind,
  userId,
  asset,
});
const systemAccount = (kind: 'system_external' | 'system_fees' | 'system_rewards', asset: CoinCode): AccountRef => ({
  kind,
  userId: null,
  asset,
});

function assertMovement(m: Movement): void {
  assert(isCoinCode(m.asset), `asset ${m.asset} is a catalogue coin`);
  assert(typeof m.amountMinor === 'bigint' && m.amountMinor > 0n, 'movement amount is a positive bigint');
}

/** Moves `amountMinor` from the first account to the second. */
async function move(
  trx: Trx,
  kind: TransferKind,
  m: Movement,
  from: AccountRef,
  to: AccountRef,
  now: Date,
): Promise<PostResult> {
  assertMovement(m);
  const legs: RefLeg[] = [
    { account: from, amountMinor: -m.amountMinor },
    { account: to, amountMinor: m.amountMinor },
  ];
  return postTransferToAccounts(trx, { idempotencyKey: m.idempotencyKey, kind, legs, metadata: m.metadata ?? {} }, now);
}

/** A confirmed on-chain deposit: outside world -> the user's available balance. */
export function creditDeposit(trx: Trx, m: UserMovement, now: Date): Promise<PostResult> {
  return move(
    trx,
    'deposit',
    m,
    systemAccount('system_external', m.asset),
    userAccount('user_available', m.userId, m.asset),
    now,
  );
}

/** Reserve funds for a pending withdrawal or order: available -> locked. */
export function lockFunds(trx: Trx, m: UserMovement, now: Date): Promise<PostResult> {
  return move(
    trx,
    'lock',
    m,
    userAccount('user_available', m.userId, m.asset),
    userAccount('user_locked', m.userId, m.asset),
    now,
  );
}

/** Release a reservation (withdrawal rejected or cancelled): locked -> available. */
export function unlockFunds(trx: Trx, m: UserMovement, now: Date): Promise<PostResult> {
  return move(
    trx,
    'unlock',
    m,
    userAccount('user_locked', m.userId, m.asset),
    userAccount('user_available', m.userId, m.asset),
    now,
  );
}

/** A withdrawal broadcast: the locked amount leaves, minus the fee the platform keeps. */
export async function settleWithdrawal(trx: Trx, m: WithdrawalSettlement, now: Date): Promise<PostResult> {
  assertMovement(m);
  assert(typeof m.feeMinor === 'bigint' && m.feeMinor >= 0n && m.feeMinor < m.amountMinor, '0 <= fee < amount');
  const legs: RefLeg[] = [
    { account: userAccount('user_locked', m.userId, m.asset), amountMinor: -m.amountMinor },
    { account: systemAccount('system_external', m.asset), amountMinor: m.amountMinor - m.feeMinor },
  ];
  // A zero leg is not allowed (it would be an entry that changes nothing).
  if (m.feeMinor > 0n) legs.push({ account: systemAccount('system_fees', m.asset), amountMinor: m.feeMinor });
  return postTransferToAccounts(
    trx,
    { idempotencyKey: m.idempotencyKey, kind: 'withdrawal_settle', legs, metadata: m.metadata ?? {} },
    now,
  );
}

/** An in-platform send between two users (no chain, no fee): A available -> B available. */
export function internalSend(trx: Trx, m: InternalSend, now: Date): Promise<PostResult> {
  assert(m.fromUserId !== m.toUserId, 'a send goes to another user');
  return move(
    trx,
    'internal_send',
    m,
    userAccount('user_available', m.fromUserId, m.asset),
    userAccount('user_available', m.toUserId, m.asset),
    now,
  );
}

/**
 * A reward earned: system_rewards -> the user's pending rewards (`to: 'rewards'`: a check-in, which
 * then waits for its claim and delivery), or straight to the available balance (`to: 'available'`: a
 * lottery prize or an inviter's reward, paid at once). A short pool is refused with
 * INSUFFICIENT_BALANCE like any other account, never overdrawn.
 */
export function payReward(trx: Trx, m: UserMovement & { to: 'rewards' | 'available' }, now: Date): Promise<PostResult> {
  return move(
    trx,
    'reward',
    m,
    systemAccount('system_rewards', m.asset),
    userAccount(m.to === 'rewards' ? 'user_rewards' : 'user_available', m.userId, m.asset),
    now,
  );
}

/**
 * A pending reward taken back (its cause, a check-in, left the chain in a reorg before it was
 * claimed): the user's pending rewards -> system_rewards.
 */
export function reverseReward(trx: Trx, m: UserMovement, now: Date): Promise<PostResult> {
  return move(
    trx,
    'reward',
    m,
    userAccount('user_rewards', m.userId, m.asset),
    systemAccount('system_rewards', m.asset),
    now,
  );
}

/** Claimed rewards delivered: the user's pending rewards -> available. */
export function deliverRewards(trx: Trx, m: UserMovement, now: Date): Promise<PostResult> {
  return move(
    trx,
    'reward_delivery',
    m,
    userAccount('user_rewards', m.userId, m.asset),
    userAccount('user_available', m.userId, m.asset),
    now,
  );
}

/** The rewards pool funded by the platform: system_external -> system_rewards. */
export function fundRewards(trx: Trx, m: Movement, now: Date): Promise<PostResult> {
  return move(
    trx,
    'reward',
    m,
    systemAccount('system_external', m.asset),
    systemAccount('system_rewards', m.asset),
    now,
  );
}
