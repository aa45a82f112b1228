import { sha256 } from '@noble/hashes/sha2';
import { base58check } from '@scure/base';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { type CoinCode, coinNetworks } from '../catalogue/catalogue.ts';
import { tronTokenContract } from '../catalogue/runtime.ts';
import { type HistoryCursor, type HistoryUpdate, readHistory } from './address-history.ts';
import { createAddressWatcher } from './address-watcher.ts';
import { asArray, asBigInt, asString, at, fetchJson, type Json, postJson } from './http-json.ts';
import type { ChainWatcher, ObservedTransfer, WatcherFence } from './watcher.ts';

/**
 * TRON deposits through the TronGrid HTTP API (confirmed = solidified transactions only):
 * - POST /wallet/getnowblock                                   -> tip (block_header.raw_data.number, blockID)
 * - GET  /v1/accounts/:address/transactions?only_to=true&only_confirmed=true
 *                                                              -> native TRX TransferContract (amount in sun)
 * - GET  /v1/accounts/:address/transactions/trc20?only_to=true&only_confirmed=true&contract_address=T...
 *                                                              -> TRC-20 transfers of ONE catalogue contract
 *                                                                 (value in token units; spam tokens never listed)
 *   Both paged (limit=200, meta.fingerprint) until a page holds a recorded transaction, resumed after the
 *   page cap (address-history.ts).
 * - POST /wallet/gettransactioninfobyid { value }              -> blockNumber of a TRC-20 transfer
 * - POST /wallet/getblockbynum { num }                         -> blockID (block hash)
 */
export interface TronWatcherOptions {
  db: Kysely<Database>;
  baseUrl: string;
  /** TRC-20 contracts (base58 T...) by coin; default: TRON_TOKEN_<COIN> from the environment, USDT mainnet. */
  tokens?: Partial<Record<CoinCode, string>>;
  addressesPerTick?: number;
  fence?: WatcherFence;
}

const b58c = base58check(sha256);
/** TronGrid's largest page. */
const PAGE_LIMIT = 200;

export function tronHexToBase58(hex: string): string | undefined {
  if (!/^41[0-9a-fA-F]{40}$/.test(hex)) return undefined;
  return b58c.encode(Uint8Array.from(Buffer.from(hex, 'hex')));
}

/** The same contracts the catalogue offers deposits for (tronTokenContract): no address for an unwatched token. */
function defaultTokens(env: NodeJS.ProcessEnv): Partial<Record<CoinCode, string>> {
  const tokens: Partial<Record<CoinCode, string>> = {};
  for (const pair of coinNetworks) {
    const contract = pair.network === 'tron' && pair.tokenContract !== null ? tronTokenContract(pair.coin, env) : null;
    if (contract) tokens[pair.coin] = contract;
  }
  return tokens;
}

export function tronSource(baseUrl: string, tokens: Partial<Record<CoinCode, string>>) {
  const base = baseUrl.replace(/\/+$/, '');
  const coinOfContract = new Map(Object.entries(tokens).map(([coin, contract]) => [contract, coin as CoinCode]));
  /** The items of a listing, newest first, read with readHistory (paged by fingerprint, resumed after the cap). */
  async function pages(
    cursor: HistoryCursor,
    listing: string,
    url: string,
    idField: string,
    history: HistoryUpdate[],
  ): Promise<Json[]> {
    const read = await readHistory(cursor, listing, async (fingerprint) => {
      const answer = await fetchJson(
        `${url}&limit=${PAGE_LIMIT}${fingerprint ? `&fingerprint=${encodeURIComponent(fingerprint)}` : ''}`,
      );
      const data = asArray(at(answer, 'data'));
      const ids = data.flatMap((d) => asString(at(d, idField)) ?? []);
      return { items: data, ids, next: asString(at(answer, 'meta', 'fingerprint')) || undefined };
    });
    history.push(read.update);
    return read.items;
  }

  /** The node's hash at a height, asked every time (an empty answer: no such block). */
  async function blockHashAt(height: bigint): Promise<string | undefined> {
    return (
      asString(at(await postJson(`${base}/wallet/getblockbynum`, { num: Number(height) }), 'blockID')) || undefined
    );
  }

  /** Hashes looked up for the transfers of ONE address read (never kept across reads, never used by a check). */
  function blockHashCache() {
    const known = new Map<bigint, Promise<string | undefined>>();
    return (height: bigint) => {
      let hash = known.get(height);
      if (!hash) {
        hash = blockHashAt(height);
        known.set(height, hash);
      }
      return hash;
    };
  }

  return {
    async tip() {
      const block = await postJson(`${base}/wallet/getnowblock`, {});
      const height = asBigInt(at(block, 'block_header', 'raw_data', 'number'));
      const hash = asString(at(block, 'blockID'));
      if (height === undefined || !hash) throw new Error('trongrid: bad getnowblock answer');
      return { height, hash };
    },
    async transfersTo(address: string, cursor: HistoryCursor) {
      const cachedBlockHashAt = blockHashCache();
      const enc = encodeURIComponent(address);
      const query = 'only_to=true&only_confirmed=true';
      const history: HistoryUpdate[] = [];
      const native = await pages(cursor, 'native', `${base}/v1/accounts/${enc}/transactions?${query}`, 'txID', history);
      const trc20Transfers: Json[] = [];
      for (const contract of coinOfContract.keys()) {
        const url = `${base}/v1/accounts/${enc}/transactions/trc20?${query}&contract_address=${encodeURIComponent(contract)}`;
        trc20Transfers.push(...(await pages(cursor, `trc20:${contract}`, url, 'transaction_id', history)));
      }
      const out: ObservedTransfer[] = [];
      for (const tx of native) {
        const contract = at(tx, 'raw_data', 'contract', 0);
        if (asString(at(contract, 'type')) !== 'TransferContract') continue;
        if (asString(at(tx, 'ret', 0, 'contractRet')) !== 'SUCCESS') continue;
        const value = at(contract, 'parameter', 'value');
        const to = tronHexToBase58(asString(at(value, 'to_address')) ?? '');
        const amount = asBigInt(at(value, 'amount'));
        const txHash = asString(at(tx, 'txID'));
        const blockNumber = asBigInt(at(tx, 'blockNumber'));
        if (to !== address || !amount || !txHash || blockNumber === undefined) continue;
        const blockHash = await cachedBlockHashAt(blockNumber);
        if (!blockHash) continue;
        out.push({
          network: 'tron',
          coin: 'TRX',
          txHash,
          outputIndex: -1,
          fromAddress: tronHexToBase58(asString(at(value, 'owner_address')) ?? '') ?? null,
          toAddress: address,
          chainAmount: amount,
          blockNumber,
          blockHash,
        });
      }
      // One transaction may hold several Transfer events to us: index them within the transaction.
      const perTx = new Map<string, number>();
      for (const t of trc20Transfers) {
        const coin = coinOfContract.get(asString(at(t, 'token_info', 'address')) ?? '');
        const txHash = asString(at(t, 'transaction_id'));
        const value = asBigInt(at(t, 'value'));
        if (!coin || !txHash || !value || asString(at(t, 'to')) !== address || asString(at(t, 'type')) !== 'Transfer') {
          continue;
        }
        const index = perTx.get(txHash) ?? 0;
        perTx.set(txHash, index + 1);
        const info = await postJson(`${base}/wallet/gettransactioninfobyid`, { value: txHash });
        const blockNumber = asBigInt(at(info, 'blockNumber'));
        if (blockNumber === undefined || asString(at(info, 'receipt', 'result')) !== 'SUCCESS') continue;
        const blockHash = await cachedBlockHashAt(blockNumber);
        if (!blockHash) continue;
        out.push({
          network: 'tron',
          coin,
          txHash,
          outputIndex: index,
          fromAddress: asString(at(t, 'from')) ?? null,
          toAddress: address,
          chainAmount: value,
          blockNumber,
          blockHash,
        });
      }
      return { transfers: out, history };
    },
    blockHashAt,
  };
}

export function createTronWatcher(options: TronWatcherOptions): ChainWatcher {
  return createAddressWatcher({
    db: options.db,
    network: 'tron',
    source: tronSource(options.baseUrl, options.tokens ?? defaultTokens(process.env)),
    ...(options.addressesPerTick === undefined ? {} : { addressesPerTick: options.addressesPerTick }),
    ...(options.fence ? { fence: options.fence } : {}),
  });
}
