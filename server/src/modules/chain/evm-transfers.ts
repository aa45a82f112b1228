import type { Kysely } from 'kysely';
import { type Address, type Block, getAddress, type Hash, type Log, type PublicClient, parseAbiItem } from 'viem';
import type { Database } from '../../db/schema.ts';
import { type CoinCode, type NetworkCode, nativeCoinOf } from '../catalogue/catalogue.ts';
import { depositAddressesPage } from '../deposits/addresses.ts';
import { depositAddressOwners } from '../deposits/processor.ts';
import { internalNativeTransfers } from './evm-internal.ts';
import { addressTopic, blockEventLogs, bloomBits, type WatchedTopic } from './evm-logs.ts';
import type { ObservedTransfer } from './watcher.ts';

/**
 * The deposits an EVM block holds for our addresses: native transfers (a transaction's value, when its
 * receipt says it succeeded) and `Transfer` logs of the catalogue's tokens (read per block by hash,
 * evm-logs.ts). A token transfer is keyed by its log's position within its transaction (issue 39).
 */
export const transferEvent = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)');

export type FullBlock = Block<bigint, true, 'latest'>;
type TransferLog = Log<bigint, number, false, typeof transferEvent, true>;
/** A transfer seen in a block; logIndex: the token log's index in the block, null for a native transfer. */
interface Candidate {
  transfer: ObservedTransfer;
  logIndex: number | null;
}

export interface TransferContext {
  db: Kysely<Database>;
  client: PublicClient;
  network: NetworkCode;
  /** Token contracts by coin. */
  tokens: Partial<Record<CoinCode, Address>>;
  /** Also native coin sent by contracts (internal calls, evm-internal.ts). */
  traceInternal?: boolean;
  /** The deposit addresses as Transfer `to` topics: a bloom holding one no returned log carries is a partial answer. */
  watched?: readonly WatchedTopic[];
}

/** Deposit addresses read per page when the watched topics catch up with new addresses. */
const ADDRESS_PAGE = 1000;

/**
 * The network's deposit addresses as watched topics (with their bloom bits, computed once). Addresses
 * are never removed or reused, so each call reads only those added since the last one (a cache of the
 * table, rebuilt from it by a new process).
 */
export function createWatchedTopics(db: Kysely<Database>, network: NetworkCode) {
  const topics: WatchedTopic[] = [];
  let afterId = '0';
  return async function watchedTopics(): Promise<readonly WatchedTopic[]> {
    for (;;) {
      const page = await depositAddressesPage(db, network, afterId, ADDRESS_PAGE);
      for (const a of page) {
        const topic = addressTopic(a.address);
        topics.push({ topic, bits: bloomBits(topic) });
      }
      afterId = page.at(-1)?.id ?? afterId;
      if (page.length < ADDRESS_PAGE) return topics;
    }
  };
}

/** Native transfers (top-level value) and catalogue-token Transfer logs of the blocks, to any address. */
async function candidates(ctx: TransferContext, blocks: FullBlock[]): Promise<Candidate[]> {
  const { client, network } = ctx;
  const nativeCoin = nativeCoinOf(network);
  const tokenCoins = new Map(
    Object.entries(ctx.tokens).map(([coin, address]) => [address.toLowerCase(), coin as CoinCode]),
  );
  const tokenAddresses = Object.values(ctx.tokens);
  const out: Candidate[] = [];
  for (const b of blocks) {
    for (const tx of b.transactions) {
      if (!tx.to || tx.value <= 0n) continue;
      out.push({
        logIndex: null,
        transfer: {
          network,
          coin: nativeCoin,
          txHash: tx.hash,
          outputIndex: -1,
          fromAddress: getAddress(tx.from),
          toAddress: getAddress(tx.to),
          chainAmount: tx.value,
          blockNumber: b.number as bigint,
          blockHash: b.hash as string,
        },
      });
    }
  }
  if (ctx.traceInternal) {
    const internal = await Promise.all(blocks.map((b) => internalNativeTransfers(client, b, network, nativeCoin)));
    for (const transfer of internal.flat()) out.push({ logIndex: null, transfer });
  }
  const perBlock = await Promise.all(
    blocks.map((b) => blockEventLogs(client, b, tokenAddresses, transferEvent, ctx.watched ?? [])),
  );
  for (const l of perBlock.flat() as TransferLog[]) {
    const coin = tokenCoins.get(l.address.toLowerCase());
    const { from, to, value } = l.args;
    if (!coin || !to || value === undefined || value <= 0n || l.logIndex === null) continue;
    out.push({
      logIndex: l.logIndex,
      transfer: {
        network,
        coin,
        txHash: l.transactionHash as string,
        outputIndex: -1, // set from the receipt: the log's position within its transaction
        fromAddress: from ? getAddress(from) : null,
        toAddress: getAddress(to),
        chainAmount: value,
        blockNumber: l.blockNumber as bigint,
        blockHash: l.blockHash as string,
      },
    });
  }
  return out;
}

/**
 * The transfers to our deposit addresses. Each one's transaction receipt says whether it succeeded
 * (a reverted transaction still carries its value field) and where the transaction's logs start: a
 * token transfer is keyed by its log's position WITHIN the transaction, which stays the same when a
 * reorg re-mines the transaction in another block, unlike the log's index in the block.
 */
export async function observeTransfers(ctx: TransferContext, blocks: FullBlock[]): Promise<ObservedTransfer[]> {
  const { db, client, network } = ctx;
  const all = await candidates(ctx, blocks);
  const owners = await depositAddressOwners(
    db,
    network,
    all.map((c) => c.transfer.toAddress),
  );
  const ours = all.filter((c) => owners.has(c.transfer.toAddress));
  const hashes = [...new Set(ours.map((c) => c.transfer.txHash))];
  const got = await Promise.all(hashes.map((hash) => client.getTransactionReceipt({ hash: hash as Hash })));
  const receipts = new Map(got.map((r) => [r.transactionHash as string, r]));
  const kept: ObservedTransfer[] = [];
  for (const { transfer, logIndex } of ours) {
    const receipt = receipts.get(transfer.txHash);
    if (!receipt || receipt.blockHash !== transfer.blockHash)
      throw new Error('receipt and block disagree (reorg under way)');
    if (logIndex === null) {
      if (receipt.status === 'success') kept.push(transfer);
      continue;
    }
    const first = receipt.logs[0]?.logIndex;
    if (first === undefined || first === null || first > logIndex) throw new Error('receipt without the log');
    kept.push({ ...transfer, outputIndex: logIndex - first });
  }
  return kept;
}
