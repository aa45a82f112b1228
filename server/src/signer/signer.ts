import { type Kysely, sql } from 'kysely';
import {
  type Account,
  createPublicClient,
  defineChain,
  encodeFunctionData,
  erc20Abi,
  type Hex,
  http,
  keccak256,
  type PublicClient,
} from 'viem';
import type { Database } from '../db/schema.ts';
import { type CoinCode, coinDecimals, findCoinNetwork, type NetworkCode } from '../modules/catalogue/catalogue.ts';
import { type EvmChains, type EvmNetwork, evmNetworks } from '../modules/catalogue/chains-file.ts';
import { markTransferFailed, markTransferInProgress, markTransferSuccessful } from '../modules/withdrawals/service.ts';

/**
 * The signer's loop, one `tick()` at a time (signer/main.ts runs it in its own process).
 *
 * Safety rule: a withdrawal is signed at most once. The signed raw transaction, its nonce and hash
 * are written to `signer_transactions` in the same database transaction that moves the withdrawal
 * to transfer_in_progress, and only THEN broadcast. After a crash anywhere, the next tick finds the
 * recorded transaction and rebroadcasts the same bytes (same hash: a node treats it as one
 * transaction), so a withdrawal can never be paid twice. Nonces come from max(chain pending nonce,
 * last recorded nonce + 1), so a recorded but never-broadcast nonce is never handed out again.
 */
export interface SignerOptions {
  db: Kysely<Database>;
  now: () => Date;
  account: Account & { signTransaction: NonNullable<Account['signTransaction']> };
  chains: () => EvmChains;
  /** Approved withdrawals signed per tick (a bound on the work of one tick). */
  batch?: number;
  /** Test hook: called after a transaction is recorded, before it is broadcast. */
  afterRecord?: (withdrawalId: string, txHash: Hex) => void;
  log?: (msg: string, details?: Record<string, unknown>) => void;
}

export interface TickResult {
  signed: number;
  settled: number;
  failed: number;
  rebroadcast: number;
}

/** Gas for a plain transfer and a generous cap for an ERC-20 transfer (refunded if unused). */
const NATIVE_GAS = 21_000n;
const TOKEN_GAS = 100_000n;

export function createSigner(options: SignerOptions) {
  const { db, now, account } = options;
  const batch = options.batch ?? 10;
  const log = options.log ?? (() => {});
  const clients = new Map<string, PublicClient>();

  function clientFor(network: EvmNetwork): PublicClient | undefined {
    const chain = options.chains()[network];
    if (!chain) return undefined;
    const cacheKey = `${network}|${chain.chainId}|${chain.rpcUrl}`;
    let client = clients.get(cacheKey);
    if (!client) {
      const definition = defineChain({
        id: chain.chainId,
        name: network,
        nativeCurrency: { name: network, symbol: network === 'bsc' ? 'BNB' : 'ETH', decimals: 18 },
        rpcUrls: { default: { http: [chain.rpcUrl] } },
      });
      client = createPublicClient({
        chain: definition,
        transport: http(chain.rpcUrl, { timeout: 10_000 }),
      }) as PublicClient;
      clients.set(cacheKey, client);
    }
    return client;
  }

  /** Broadcasts recorded bytes; "already known" and friends mean the node has it, which is the goal. */
  async function broadcast(client: PublicClient, id: string, raw: Hex): Promise<void> {
    try {
      await client.sendRawTransaction({ serializedTransaction: raw });
      await db
        .updateTable('signer_transactions')
        .set((eb) => ({ broadcast_count: eb('broadcast_count', '+', 1), last_error: null, updated_at: now() }))
        .where('id', '=', id)
        .execute();
    } catch (err) {
      const message = String((err as Error).message ?? err).slice(0, 500);
      await db
        .updateTable('signer_transactions')
        .set((eb) => ({ broadcast_count: eb('broadcast_count', '+', 1), last_error: message, updated_at: now() }))
        .where('id', '=', id)
        .execute();
      log('broadcast failed; will retry', { signerTransactionId: id, error: message });
    }
  }

  /** Recorded transactions not yet mined: settle the mined ones, rebroadcast the others. */
  async function followUp(result: TickResult): Promise<void> {
    const open = await db
      .selectFrom('signer_transactions')
      .selectAll()
      .where('state', '=', 'signed')
      .orderBy('id')
      .limit(100)
      .execute();
    for (const tx of open) {
      const client = clientFor(tx.network as EvmNetwork);
      if (!client) continue;
      const receipt = await client.getTransactionReceipt({ hash: tx.tx_hash as Hex }).catch(() => undefined);
      if (!receipt) {
        await broadcast(client, tx.id, tx.raw_tx as Hex);
        result.rebroadcast += 1;
        continue;
      }
      const ok = receipt.status === 'success';
      await db.transaction().execute(async (trx) => {
        const at = now();
        const updated = await trx
          .updateTable('signer_transactions')
          .set({ state: ok ? 'mined' : 'reverted', block_number: receipt.blockNumber.toString(), updated_at: at })
          .where('id', '=', tx.id)
          .where('state', '=', 'signed')
          .executeTakeFirst();
        if (updated.numUpdatedRows === 0n) return;
        if (ok) await markTransferSuccessful(trx, tx.withdrawal_id, at);
        else await markTransferFailed(trx, tx.withdrawal_id, 'transaction reverted on chain', at);
      });
      if (ok) result.settled += 1;
      else result.failed += 1;
      log(ok ? 'withdrawal settled' : 'withdrawal reverted', { withdrawalId: tx.withdrawal_id, txHash: tx.tx_hash });
    }
  }

  async function nextNonce(trx: Kysely<Database>, client: PublicClient, chainId: number): Promise<bigint> {
    const pending = BigInt(await client.getTransactionCount({ address: account.address, blockTag: 'pending' }));
    const { rows } = await sql<{ max: string | null }>`
      select max(nonce)::text as max from signer_transactions
      where chain_id = ${chainId} and from_address = ${account.address}`.execute(trx);
    const recorded = rows[0]?.max == null ? -1n : BigInt(rows[0].max);
    return pending > recorded ? pending : recorded + 1n;
  }

  /** Signs, records and broadcasts one approved withdrawal. */
  async function signOne(w: { id: string; coin: string; network: string; address: string; arrival_minor: string }) {
    const network = w.network as EvmNetwork;
    const chain = options.chains()[network];
    const client = clientFor(network);
    const pair = findCoinNetwork(w.coin as CoinCode, w.network as NetworkCode);
    if (!chain || !client || !pair) return false;
    const chainAmount = BigInt(w.arrival_minor) * 10n ** BigInt(pair.chainDecimals - coinDecimals(pair.coin));
    const isNative = pair.tokenContract === null;
    const token = isNative ? undefined : chain.tokens[pair.coin];
    if (!isNative && !token) return false;
    const fees = await client.estimateFeesPerGas();

    const recorded = await db.transaction().execute(async (trx) => {
      // One signer at a time per hot wallet and chain: nonces are handed out in order.
      await sql`select pg_advisory_xact_lock(hashtext(${`signer:${chain.chainId}:${account.address}`}))`.execute(trx);
      const still = await trx
        .selectFrom('withdrawals')
        .select('state')
        .where('id', '=', w.id)
        .forUpdate()
        .executeTakeFirst();
      if (still?.state !== 'review_approved') return undefined;
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
      const row = await trx
        .insertInto('signer_transactions')
        .values({
          withdrawal_id: w.id,
          network,
          chain_id: chain.chainId,
          from_address: account.address,
          nonce: nonce.toString(),
          tx_hash: hash,
          raw_tx: raw,
          state: 'signed',
          created_at: at,
          updated_at: at,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await markTransferInProgress(trx, w.id, hash, at);
      return { id: row.id, raw, hash, nonce };
    });
    if (!recorded) return false;
    log('withdrawal signed and recorded', {
      withdrawalId: w.id,
      txHash: recorded.hash,
      nonce: recorded.nonce.toString(),
    });
    options.afterRecord?.(w.id, recorded.hash);
    await broadcast(client, recorded.id, recorded.raw);
    return true;
  }

  return {
    address: account.address,
    async tick(): Promise<TickResult> {
      const result: TickResult = { signed: 0, settled: 0, failed: 0, rebroadcast: 0 };
      // First the recorded ones (resume after a restart), then new work.
      await followUp(result);
      const enabled = evmNetworks.filter((n) => options.chains()[n] !== undefined);
      if (enabled.length === 0) return result;
      const approved = await db
        .selectFrom('withdrawals')
        .select(['id', 'coin', 'network', 'address', 'arrival_minor'])
        .where('state', '=', 'review_approved')
        .where('network', 'in', enabled)
        .orderBy('created_at')
        .orderBy('id')
        .limit(batch)
        .execute();
      for (const w of approved) if (await signOne(w)) result.signed += 1;
      return result;
    },
  };
}
