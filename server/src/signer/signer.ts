import type { Kysely } from 'kysely';
import {
  type Account,
  encodeFunctionData,
  erc20Abi,
  type Hex,
  keccak256,
  type PublicClient,
  parseTransaction,
  type TransactionReceipt,
} from 'viem';
import type { Database } from '../db/schema.ts';
import { type CoinCode, coinDecimals, findCoinNetwork, type NetworkCode } from '../modules/catalogue/catalogue.ts';
import { type EvmChains, type EvmNetwork, evmNetworks } from '../modules/catalogue/chains-file.ts';
import { createEvmClient } from '../modules/chain/evm-client.ts';
import {
  listApprovedForSigning,
  lockState,
  markTransferFailed,
  markTransferInProgress,
  markTransferSuccessful,
  showTxHash,
} from '../modules/withdrawals/signing.ts';
import {
  type Attempt,
  insertAttempt,
  listOpenWithdrawals,
  loadAttempts,
  lockHotWallet,
  markMined,
  maxRecordedNonce,
  newestAttempt,
  noteBroadcast,
} from './repository.ts';

/**
 * The signer's loop, one `tick()` at a time (signer/main.ts runs it in its own process).
 *
 * Safety rule: a withdrawal is signed at most once. The signed raw transaction, its nonce and hash
 * are written to `signer_transactions` in the same database transaction that moves the withdrawal
 * to transfer_in_progress, and only THEN broadcast. After a crash anywhere, the next tick finds the
 * recorded transaction and rebroadcasts the same bytes (same hash: a node treats it as one
 * transaction), so a withdrawal can never be paid twice. Nonces come from max(chain pending nonce,
 * last recorded nonce + 1), so a recorded but never-broadcast nonce is never handed out again.
 *
 * Stuck transactions: when an attempt has had no receipt for `replaceAfterMs` since its first
 * broadcast, a replacement with the SAME nonce and fees raised by at least 12.5% (and at least the
 * network's current estimate) is signed and recorded as the next attempt, again before it is
 * broadcast. The attempts of one nonce all pay the same withdrawal and at most one of them can be
 * mined: every tick looks for a receipt of ANY attempt, and the one found settles the withdrawal
 * (the others become `replaced`) in one database transaction guarded by the attempt's state.
 */
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
  /** Optional ceiling on maxFeePerGas of a replacement, in wei: above it no replacement is signed. */
  maxFeePerGasCapWei?: bigint;
  /** Test hook: called after an attempt is recorded, before it is broadcast (attempt 0 = first signing). */
  afterRecord?: (withdrawalId: string, txHash: Hex, attempt: number) => void | Promise<void>;
  log?: (msg: string, details?: Record<string, unknown>) => void;
}

export interface TickResult {
  signed: number;
  settled: number;
  failed: number;
  rebroadcast: number;
  replaced: number;
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

/** The smallest fee a node accepts as a replacement: +12.5% (geth needs +10%), and at least +1 wei. */
export function bumpFee(previousWei: bigint): bigint {
  const step = (previousWei + 7n) / 8n;
  return previousWei + (step > 0n ? step : 1n);
}

/** The largest of some wei amounts (Math.max does not take bigint). */
function maxOf(first: bigint, ...rest: bigint[]): bigint {
  let largest = first;
  for (const value of rest) if (value > largest) largest = value;
  return largest;
}

/** Gas for a plain transfer and a generous cap for an ERC-20 transfer (refunded if unused). */
const NATIVE_GAS = 21_000n;
/** Withdrawals followed up per tick (a bound on the work of one tick). */
const FOLLOW_UP_LIMIT = 100;
const TOKEN_GAS = 100_000n;

export function createSigner(options: SignerOptions) {
  const { db, now, account } = options;
  const batch = options.batch ?? 10;
  const replaceAfterMs = options.replaceAfterMs ?? 60_000;
  const maxReplacements = Math.min(32, Math.max(0, options.maxReplacements ?? 5));
  const log = options.log ?? (() => {});
  const clients = new Map<string, PublicClient>();

  function clientFor(network: EvmNetwork): PublicClient | undefined {
    const chain = options.chains()[network];
    if (!chain) return undefined;
    const cacheKey = `${network}|${chain.chainId}|${chain.rpcUrl}`;
    let client = clients.get(cacheKey);
    if (!client) {
      client = createEvmClient(chain.rpcUrl);
      clients.set(cacheKey, client);
    }
    return client;
  }

  /** Broadcasts one recorded attempt's bytes and notes the answer on its row. */
  async function broadcast(client: PublicClient, attempt: { id: string; raw_tx: string }): Promise<BroadcastOutcome> {
    let outcome: BroadcastOutcome = 'accepted';
    let message: string | null = null;
    try {
      await client.sendRawTransaction({ serializedTransaction: attempt.raw_tx as Hex });
    } catch (err) {
      message = String((err as Error).message ?? err).slice(0, 500);
      outcome = classifyBroadcastError(message);
    }
    await noteBroadcast(db, attempt.id, outcome === 'accepted' || outcome === 'known' ? null : message, now());
    if (outcome === 'failed') log('broadcast failed; will retry', { signerTransactionId: attempt.id, error: message });
    return outcome;
  }

  /** The receipt of whichever attempt was mined (they share a nonce: at most one exists). */
  async function findMined(
    client: PublicClient,
    attempts: readonly Attempt[],
  ): Promise<{ attempt: Attempt; receipt: TransactionReceipt } | undefined> {
    for (const attempt of [...attempts].reverse()) {
      const receipt = await client.getTransactionReceipt({ hash: attempt.tx_hash as Hex }).catch(() => undefined);
      if (receipt) return { attempt, receipt };
    }
    return undefined;
  }

  /** Settles (or fails) the withdrawal by the mined attempt, exactly once; the other attempts become replaced. */
  async function settle(mined: { attempt: Attempt; receipt: TransactionReceipt }, result: TickResult): Promise<void> {
    const { attempt, receipt } = mined;
    const ok = receipt.status === 'success';
    const done = await db.transaction().execute(async (trx) => {
      const at = now();
      if (!(await markMined(trx, attempt, { ok, blockNumber: receipt.blockNumber }, at))) return false;
      // The user's and the ledger's hash is the one on chain, which may be an earlier attempt.
      await showTxHash(trx, attempt.withdrawal_id, attempt.tx_hash);
      if (ok) await markTransferSuccessful(trx, attempt.withdrawal_id, at);
      else await markTransferFailed(trx, attempt.withdrawal_id, 'transaction reverted on chain', at);
      return true;
    });
    if (!done) return;
    if (ok) result.settled += 1;
    else result.failed += 1;
    log(ok ? 'withdrawal settled' : 'withdrawal reverted', {
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
  async function onNonceUsed(client: PublicClient, attempts: readonly Attempt[], result: TickResult) {
    const mined = await findMined(client, attempts);
    if (mined) return settle(mined, result);
    log('nonce used on chain but no recorded attempt has a receipt yet', {
      withdrawalId: attempts[0]?.withdrawal_id,
      nonce: attempts[0]?.nonce,
    });
  }

  /** Rebroadcasts the newest attempt; when a node refuses it, the older ones (so one stays in the mempool). */
  async function rebroadcast(client: PublicClient, attempts: readonly Attempt[]): Promise<BroadcastOutcome> {
    let outcome: BroadcastOutcome = 'failed';
    for (const attempt of [...attempts].reverse()) {
      outcome = await broadcast(client, attempt);
      if (outcome !== 'failed') return outcome;
    }
    return outcome;
  }

  /** Signs, records, then broadcasts a fee-bumped replacement of `latest` (same nonce). */
  async function replace(client: PublicClient, latest: Attempt, result: TickResult): Promise<boolean> {
    const previous = parseTransaction(latest.raw_tx as Hex);
    if (previous.type !== 'eip1559' || previous.nonce === undefined || previous.chainId === undefined) return false;
    const network = await client.estimateFeesPerGas();
    const maxPriorityFeePerGas = maxOf(bumpFee(previous.maxPriorityFeePerGas ?? 0n), network.maxPriorityFeePerGas);
    const maxFeePerGas = maxOf(bumpFee(previous.maxFeePerGas ?? 0n), network.maxFeePerGas, maxPriorityFeePerGas);
    if (options.maxFeePerGasCapWei !== undefined && maxFeePerGas > options.maxFeePerGasCapWei) {
      log('replacement would exceed the fee cap; rebroadcasting instead', {
        withdrawalId: latest.withdrawal_id,
        maxFeePerGas: maxFeePerGas.toString(),
      });
      return false;
    }
    const recorded = await db.transaction().execute(async (trx) => {
      await lockHotWallet(trx, latest.chain_id, latest.from_address);
      if ((await lockState(trx, latest.withdrawal_id)) !== 'transfer_in_progress') return undefined;
      const newest = await newestAttempt(trx, latest.withdrawal_id);
      if (newest?.attempt !== latest.attempt || newest.state !== 'signed') return undefined;
      const raw = await account.signTransaction({
        type: 'eip1559',
        chainId: previous.chainId,
        nonce: previous.nonce,
        to: previous.to,
        value: previous.value,
        data: previous.data,
        gas: previous.gas,
        accessList: previous.accessList,
        maxFeePerGas,
        maxPriorityFeePerGas,
      });
      const hash = keccak256(raw);
      const at = now();
      const row = await insertAttempt(trx, {
        withdrawal_id: latest.withdrawal_id,
        network: latest.network,
        chain_id: latest.chain_id,
        from_address: latest.from_address,
        nonce: latest.nonce,
        attempt: latest.attempt + 1,
        tx_hash: hash,
        raw_tx: raw,
        max_fee_per_gas: maxFeePerGas.toString(),
        max_priority_fee_per_gas: maxPriorityFeePerGas.toString(),
        state: 'signed',
        created_at: at,
        updated_at: at,
      });
      // Shown to the user while in progress: the attempt most likely to be mined.
      await showTxHash(trx, latest.withdrawal_id, hash);
      return row;
    });
    if (!recorded) return false;
    result.replaced += 1;
    log('replacement signed and recorded', {
      withdrawalId: recorded.withdrawal_id,
      nonce: recorded.nonce,
      attempt: recorded.attempt,
      txHash: recorded.tx_hash,
      replaces: latest.tx_hash,
      maxFeePerGas: maxFeePerGas.toString(),
      maxPriorityFeePerGas: maxPriorityFeePerGas.toString(),
    });
    await options.afterRecord?.(recorded.withdrawal_id, recorded.tx_hash as Hex, recorded.attempt);
    return true;
  }

  /** One withdrawal's recorded attempts: settle by a receipt of any, else replace when due, else rebroadcast. */
  async function followUpOne(client: PublicClient, attempts: Attempt[], result: TickResult): Promise<void> {
    const mined = await findMined(client, attempts);
    if (mined) return settle(mined, result);
    const latest = attempts[attempts.length - 1];
    if (!latest) return;
    const due =
      latest.state === 'signed' &&
      latest.broadcast_at !== null &&
      now().getTime() - latest.broadcast_at.getTime() >= replaceAfterMs &&
      latest.attempt < maxReplacements;
    if (due && (await replace(client, latest, result))) {
      attempts = await loadAttempts(db, latest.withdrawal_id);
    }
    const outcome = await rebroadcast(client, attempts);
    result.rebroadcast += 1;
    if (outcome === 'nonce_used') await onNonceUsed(client, attempts, result);
  }

  /** Withdrawals with recorded, unsettled attempts (oldest first), each followed up on its own. */
  async function followUp(result: TickResult): Promise<void> {
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

  async function nextNonce(trx: Kysely<Database>, client: PublicClient, chainId: number): Promise<bigint> {
    const pending = BigInt(await client.getTransactionCount({ address: account.address, blockTag: 'pending' }));
    const recorded = await maxRecordedNonce(trx, chainId, account.address);
    return pending > recorded ? pending : recorded + 1n;
  }

  /** Signs, records and broadcasts one approved withdrawal. */
  async function signOne(w: {
    id: string;
    coin: CoinCode;
    network: NetworkCode;
    address: string;
    arrival_minor: string;
  }) {
    const network = w.network as EvmNetwork;
    const chain = options.chains()[network];
    const client = clientFor(network);
    const pair = findCoinNetwork(w.coin, w.network);
    if (!chain || !client || !pair) return false;
    const chainAmount = BigInt(w.arrival_minor) * 10n ** BigInt(pair.chainDecimals - coinDecimals(pair.coin));
    const isNative = pair.tokenContract === null;
    const token = isNative ? undefined : chain.tokens[pair.coin];
    if (!isNative && !token) return false;
    const fees = await client.estimateFeesPerGas();

    const recorded = await db.transaction().execute(async (trx) => {
      // One signer at a time per hot wallet and chain: nonces are handed out in order.
      await lockHotWallet(trx, chain.chainId, account.address);
      if ((await lockState(trx, w.id)) !== 'review_approved') return undefined;
      const nonce = await nextNonce(trx, client, chain.chainId);
      const raw = await account.signTransaction({
        type: 'eip1559',
        chainId: chain.chainId,
        nonce: Number(nonce),
        to: isNative ? (w.address as Hex) : token,
        value: isNative ? chainAmount : 0n,
        data: isNative
          ? undefined
          : encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [w.address as Hex, chainAmount] }),
        gas: isNative ? NATIVE_GAS : TOKEN_GAS,
        maxFeePerGas: fees.maxFeePerGas,
        maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
      });
      const hash = keccak256(raw);
      const at = now();
      const row = await insertAttempt(trx, {
        withdrawal_id: w.id,
        network,
        chain_id: String(chain.chainId),
        from_address: account.address,
        nonce: nonce.toString(),
        tx_hash: hash,
        raw_tx: raw,
        max_fee_per_gas: fees.maxFeePerGas.toString(),
        max_priority_fee_per_gas: fees.maxPriorityFeePerGas.toString(),
        state: 'signed',
        created_at: at,
        updated_at: at,
      });
      await markTransferInProgress(trx, w.id, hash, at);
      return { id: row.id, raw, hash, nonce };
    });
    if (!recorded) return false;
    log('withdrawal signed and recorded', {
      withdrawalId: w.id,
      txHash: recorded.hash,
      nonce: recorded.nonce.toString(),
    });
    await options.afterRecord?.(w.id, recorded.hash, 0);
    await broadcast(client, { id: recorded.id, raw_tx: recorded.raw });
    return true;
  }

  return {
    address: account.address,
    async tick(): Promise<TickResult> {
      const result: TickResult = { signed: 0, settled: 0, failed: 0, rebroadcast: 0, replaced: 0 };
      // First the recorded ones (resume after a restart), then new work.
      await followUp(result);
      const enabled = evmNetworks.filter((n) => options.chains()[n] !== undefined);
      if (enabled.length === 0) return result;
      const approved = await listApprovedForSigning(db, enabled, batch);
      for (const w of approved) if (await signOne(w)) result.signed += 1;
      return result;
    },
  };
}
