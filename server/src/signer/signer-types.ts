import type { Kysely, Transaction } from 'kysely';
import type { Account, Hex, PublicClient, TransactionReceipt } from 'viem';
import type { Database } from '../db/schema.ts';
import { type CoinCode, coinNetworks, type NetworkCode } from '../modules/catalogue/catalogue.ts';
import type { EvmChains, EvmNetwork } from '../modules/catalogue/chains-file.ts';
import type { Attempt } from './repository.ts';

/** The signer's options, results and fee rules (signer.ts runs the loop). */
export interface SignerOptions {
  db: Kysely<Database>;
  now: () => Date;
  account: Account & { signTransaction: NonNullable<Account['signTransaction']> };
  chains: () => EvmChains;
  /** Approved withdrawals signed per tick (a bound on the work of one tick). */
  batch?: number;
  /** Time without a receipt after an attempt's first broadcast before a fee-bumped replacement (60 s). */
  replaceAfterMs?: number;
  /** Replacements per withdrawal at most (5); then the last attempt is only rebroadcast. */
  maxReplacements?: number;
  /**
   * Blocks a withdrawal's mined attempt must have (its own included) before it is settled or failed: a
   * receipt can leave the chain in a reorg, and the signed bytes, still in other mempools, can land on
   * the other branch with the other outcome. Top-ups and sweeps follow the same rule (another attempt
   * of the nonce may land there, with another value and fee). Default 1 (tests); the signer process
   * passes the catalogue's count per network (withdrawalConfirmations).
   */
  confirmations?: (network: EvmNetwork) => number;
  /** Optional ceiling on maxFeePerGas of a replacement, in wei: above it no replacement is signed. */
  maxFeePerGasCapWei?: bigint;
  /** Test hook: called after an attempt is recorded, before it is broadcast (attempt 0 = first signing). */
  afterRecord?: (withdrawalId: string, txHash: Hex, attempt: number) => void | Promise<void>;
  log?: (msg: string, details?: Record<string, unknown>) => void;
  /**
   * The signer's lease (signer/main.ts: one signer per hot wallet among instances): the first statement
   * of every recording transaction, and held around every broadcast, so a signer that lost its lease
   * (paused, cut off) can neither record nor broadcast after its successor started. Throws LeaseLostError.
   */
  fence?: (trx: Transaction<Database>) => Promise<void>;
  /**
   * Deposit sweeps (signer/sweeper.ts): the key of a deposit address (network, derivation index, key
   * branch: 0 users', 2 exchange orders'; default 0), and the time between sweep rounds. Without
   * `depositAccount` nothing is swept and the custody book is not opened.
   */
  depositAccount?: (network: EvmNetwork, index: number, branch?: number) => SignerOptions['account'];
  sweepIntervalMs?: number;
}

export interface TickResult {
  signed: number;
  settled: number;
  failed: number;
  rebroadcast: number;
  replaced: number;
  /** Withdrawals whose attempt is mined but has fewer blocks on it than the network's confirmations. */
  awaitingConfirmations: number;
  /** Gas top-ups and sweeps recorded, and settled (mined or reverted), this tick. */
  sweeps: number;
  sweepsSettled: number;
  /** Fee-bumped replacements of stuck top-ups and sweeps recorded this tick. */
  sweepsReplaced: number;
  /** Top-ups and sweeps whose attempt is mined but has fewer blocks on it than the network's confirmations. */
  sweepsAwaitingConfirmations: number;
}

/** What a node's answer to eth_sendRawTransaction means for an attempt. */
export type BroadcastOutcome = 'accepted' | 'known' | 'nonce_used' | 'failed';

/**
 * "already known" (geth), "known transaction" (older geth / BSC), "transaction already imported" (anvil):
 * the node holds these very bytes, which is what a broadcast is for. "nonce too low": the nonce was used
 * by a mined transaction, which for our records means one of the attempts of that nonce was mined.
 */
export function classifyBroadcastError(message: string): BroadcastOutcome {
  if (/already known|known transaction|already imported|alreadyknown|transaction already exists/i.test(message))
    return 'known';
  if (/nonce too low|nonce is too low|oldnonce|nonce has already been used/i.test(message)) return 'nonce_used';
  return 'failed';
}

/**
 * A node refused the bytes for their price: below its minimum ("transaction underpriced"), not enough
 * above another transaction of the nonce in its pool ("replacement transaction underpriced"), or a
 * fee cap under the block's base fee ("fee cap less than block base fee" / "max fee per gas less than
 * block base fee"). No node holds them, so no replacement timer runs (broadcast_at stays null): the fee
 * must be bumped now, or the nonce is dead (review of issue 37, M1).
 */
export function priceRefused(message: string | null): boolean {
  if (message === null) return false;
  return /underpriced|fee cap less than|max fee per gas less than|fee too low|gas price too low|less than block base fee/i.test(
    message,
  );
}

/** The smallest fee a node accepts as a replacement: +12.5% (geth needs +10%), and at least +1 wei. */
export function bumpFee(previousWei: bigint): bigint {
  const step = (previousWei + 7n) / 8n;
  return previousWei + (step > 0n ? step : 1n);
}

/** The largest of some wei amounts (Math.max does not take bigint). */
export function maxOf(first: bigint, ...rest: bigint[]): bigint {
  let largest = first;
  for (const value of rest) if (value > largest) largest = value;
  return largest;
}

/** A network's settle depth for withdrawals: the most confirmations any of its coins needs for a deposit. */
export function withdrawalConfirmations(network: EvmNetwork): number {
  return Math.max(1, ...coinNetworks.filter((p) => p.network === network).map((p) => p.confirmations));
}

/** The highest attempt number the table takes (migration 0013's check): replacements and cancels stop there. */
export const MAX_ATTEMPT = 32;

/** Gas for a plain transfer and a generous cap for an ERC-20 transfer (refunded if unused). */
export const NATIVE_GAS = 21_000n;
/** Withdrawals followed up per tick (a bound on the work of one tick). */
export const FOLLOW_UP_LIMIT = 100;
export const TOKEN_GAS = 100_000n;

/** The attempt of a nonce that has a receipt, and how many blocks the chain has on it (its own included). */
export interface MinedAttempt {
  attempt: Attempt;
  receipt: TransactionReceipt;
  confirmations: number;
}

/** A withdrawal ready to sign, as listApprovedForSigning reads it. */
export interface ApprovedWithdrawal {
  id: string;
  coin: CoinCode;
  network: NetworkCode;
  address: string;
  arrival_minor: string;
}

/**
 * What the signer's steps share: options, clock, key, bounds, one cached client per chain, and each
 * step bound to this context (signer-context.ts), so a step calls another as before the split. The
 * steps' signatures are written out here so the step files depend on this file only.
 */
export interface SignerContext {
  db: Kysely<Database>;
  now: () => Date;
  account: SignerOptions['account'];
  batch: number;
  replaceAfterMs: number;
  maxReplacements: number;
  log: NonNullable<SignerOptions['log']>;
  options: SignerOptions;
  clientFor(network: EvmNetwork): PublicClient | undefined;
  broadcast(client: PublicClient, attempt: { id: string; raw_tx: string }): Promise<BroadcastOutcome>;
  findMined(client: PublicClient, attempts: readonly Attempt[]): Promise<MinedAttempt | undefined>;
  settle(mined: MinedAttempt, result: TickResult): Promise<void>;
  onNonceUsed(client: PublicClient, attempts: readonly Attempt[], result: TickResult): Promise<void>;
  rebroadcast(client: PublicClient, attempts: readonly Attempt[]): Promise<BroadcastOutcome>;
  replace(client: PublicClient, latest: Attempt, result: TickResult): Promise<boolean>;
  followUpOne(client: PublicClient, attempts: Attempt[], result: TickResult): Promise<void>;
  /** Signs, records and broadcasts an operator's nonce cancel when one is asked for and none is recorded. */
  cancelIfAsked(client: PublicClient, attempts: readonly Attempt[]): Promise<boolean>;
  followUp(result: TickResult): Promise<void>;
  nextNonce(trx: Kysely<Database>, client: PublicClient, chainId: number): Promise<bigint>;
  signOne(w: ApprovedWithdrawal): Promise<boolean>;
}
