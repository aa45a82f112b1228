import type { CoinCode, NetworkCode } from '../catalogue/catalogue.ts';

/**
 * Ledger vocabulary and limits. Every loop and every input has a bound (TigerBeetle style):
 * a transfer outside these limits is a programming error and fails loudly before touching the database.
 */

export const accountKinds = [
  'user_available',
  'user_locked',
  /**
   * Check-in rewards booked and not yet delivered to the available balance (issue 12). Lottery prizes
   * never pass here: they are paid to the available balance at once (issue 36 item 14).
   */
  'user_rewards',
  'system_hot_wallet',
  'system_fees',
  'system_liquidity',
  'system_rewards',
  /** The outside world: deposits come from it, withdrawals go to it; the only account allowed below zero. */
  'system_external',
  /** Custody book (modules/custody): what the users' deposit addresses hold on chain, per chain asset. */
  'system_deposit_addresses',
] as const;
export type AccountKind = (typeof accountKinds)[number];
export type UserAccountKind = Extract<AccountKind, `user_${string}`>;
export type SystemAccountKind = Exclude<AccountKind, UserAccountKind>;

export const transferKinds = [
  'deposit',
  'lock',
  'unlock',
  'withdrawal_settle',
  'internal_send',
  /** A conversion: user gives one asset to system_liquidity and receives another from it (issue 5). */
  'convert',
  /** An exchange order's legs through system_liquidity (issue 5). */
  'exchange',
  /** A reward paid out of system_rewards (check-in, lottery prize, invitation), or the pool funded. */
  'reward',
  /** Delivered rewards: user_rewards -> user_available. */
  'reward_delivery',
  /** The custody book: coins moving on chain between the world, deposit addresses and the hot wallet (modules/custody). */
  'custody',
] as const;
export type TransferKind = (typeof transferKinds)[number];

/** A transfer has 2..8 legs: enough for a trade with fees, small enough to lock quickly. */
export const LEGS_MIN = 2;
export const LEGS_MAX = 8;
/**
 * Largest absolute leg amount: 10^60 minor units. NUMERIC(78,0) holds 10^78 - 1, so even 10^17
 * maximal postings into one account cannot overflow the column.
 */
export const LEG_AMOUNT_MAX_MINOR = 10n ** 60n;
/** Idempotency keys: the caller's request id, e.g. `deposit:<txid>:<vout>`; bounded by a CHECK too. */
export const IDEMPOTENCY_KEY_LENGTH_MAX = 128;

export interface Leg {
  accountId: string;
  /** Signed: positive credits the account, negative debits it. Never zero. */
  amountMinor: bigint;
}

export interface TransferRequest {
  idempotencyKey: string;
  kind: TransferKind;
  legs: readonly Leg[];
  metadata?: Record<string, unknown>;
}

export interface Transfer {
  id: string;
  idempotencyKey: string;
  kind: TransferKind;
  createdAt: Date;
  legs: Leg[];
}

export interface PostResult {
  transfer: Transfer;
  /** False when the idempotency key was already posted: the earlier transfer is returned, nothing changed. */
  created: boolean;
}

/**
 * A chain asset, `<COIN>@<network>` in the chain's own unit (USDT on BSC is not USDT on Ethereum): only
 * the custody book's accounts (system_hot_wallet, system_deposit_addresses, system_external) hold one.
 */
export type ChainAsset = `${CoinCode}@${NetworkCode}`;

export interface AccountRef {
  kind: AccountKind;
  /** Set for user_* kinds, null for system_* kinds. */
  userId: string | null;
  asset: CoinCode | ChainAsset;
}

export function isUserKind(kind: AccountKind): kind is UserAccountKind {
  return kind.startsWith('user_');
}

/** Assertion: an invariant the code relies on. Failing it is a bug, reported as INTERNAL, never as user error. */
export function assert(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(`ledger assertion failed: ${message}`);
}
