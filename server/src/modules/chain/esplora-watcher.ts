import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { type HistoryCursor, readHistory } from './address-history.ts';
import { createAddressWatcher } from './address-watcher.ts';
import { asArray, asBigInt, asString, at, fetchJson, fetchText, HttpStatusError, type Json } from './http-json.ts';
import type { ChainWatcher, ObservedTransfer, WatcherFence } from './watcher.ts';

/**
 * Bitcoin / Dogecoin deposits through an Esplora HTTP API:
 * - GET /blocks/tip/height, GET /blocks/tip/hash  -> tip
 * - GET /address/:address/txs/chain[/:last_seen_txid] -> confirmed transactions, newest first, 25 a
 *   page (status.block_height/block_hash); each vout paying the address is one deposit (output index =
 *   vout). Paged until a page holds a recorded transaction, resumed after the page cap (address-history.ts).
 * - GET /block-height/:height                     -> block hash (reorg check)
 */
export interface EsploraWatcherOptions {
  db: Kysely<Database>;
  network: 'bitcoin' | 'dogecoin';
  baseUrl: string;
  addressesPerTick?: number;
  fence?: WatcherFence;
}

const coinOf = { bitcoin: 'BTC', dogecoin: 'DOGE' } as const;
/** Confirmed transactions per page of /address/:address/txs/chain (fewer: the last page). */
const ESPLORA_PAGE = 25;

/** The outputs of one confirmed transaction that pay the address. */
function outputsTo(network: 'bitcoin' | 'dogecoin', address: string, tx: Json): ObservedTransfer[] {
  const txid = asString(at(tx, 'txid'));
  if (!txid || at(tx, 'status', 'confirmed') !== true) return [];
  const blockNumber = asBigInt(at(tx, 'status', 'block_height'));
  const blockHash = asString(at(tx, 'status', 'block_hash'));
  if (blockNumber === undefined || !blockHash) return [];
  const from = asString(at(tx, 'vin', 0, 'prevout', 'scriptpubkey_address')) ?? null;
  const out: ObservedTransfer[] = [];
  asArray(at(tx, 'vout')).forEach((vout, index) => {
    const value = asBigInt(at(vout, 'value'));
    if (asString(at(vout, 'scriptpubkey_address')) !== address || value === undefined || value <= 0n) return;
    out.push({
      network,
      coin: coinOf[network],
      txHash: txid,
      outputIndex: index,
      fromAddress: from,
      toAddress: address,
      chainAmount: value,
      blockNumber,
      blockHash,
    });
  });
  return out;
}

export function esploraSource(network: 'bitcoin' | 'dogecoin', baseUrl: string) {
  const base = baseUrl.replace(/\/+$/, '');
  return {
    async tip() {
      const [height, hash] = await Promise.all([
        fetchText(`${base}/blocks/tip/height`),
        fetchText(`${base}/blocks/tip/hash`),
      ]);
      if (!/^\d+$/.test(height.trim())) throw new Error(`esplora: bad tip height ${height.slice(0, 40)}`);
      return { height: BigInt(height.trim()), hash: hash.trim() };
    },
    async transfersTo(address: string, cursor: HistoryCursor) {
      const chain = `${base}/address/${encodeURIComponent(address)}/txs/chain`;
      const read = await readHistory(cursor, 'chain', async (lastSeen) => {
        if (lastSeen !== undefined && !/^[0-9a-f]{64}$/.test(lastSeen)) throw new Error('esplora: bad resume txid');
        const txs = asArray(await fetchJson(lastSeen ? `${chain}/${lastSeen}` : chain));
        const ids = txs.flatMap((tx) => asString(at(tx, 'txid')) ?? []);
        const items = txs.flatMap((tx) => outputsTo(network, address, tx));
        return { items, ids, next: txs.length < ESPLORA_PAGE ? undefined : ids.at(-1) };
      });
      return { transfers: read.items, history: [read.update] };
    },
    async blockHashAt(height: bigint) {
      try {
        return (await fetchText(`${base}/block-height/${height}`)).trim();
      } catch (err) {
        // Only "no such block" is absent; a 429 or a timeout fails the tick (a reorg check never passes on an error).
        if (err instanceof HttpStatusError && err.status === 404) return undefined;
        throw err;
      }
    },
  };
}

export function createEsploraWatcher(options: EsploraWatcherOptions): ChainWatcher {
  return createAddressWatcher({
    db: options.db,
    network: options.network,
    source: esploraSource(options.network, options.baseUrl),
    ...(options.addressesPerTick === undefined ? {} : { addressesPerTick: options.addressesPerTick }),
    ...(options.fence ? { fence: options.fence } : {}),
  });
}
