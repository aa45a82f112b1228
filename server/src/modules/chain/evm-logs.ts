import {
  type AbiEvent,
  type Address,
  type Block,
  formatTransactionReceipt,
  type Hash,
  type Hex,
  hexToBytes,
  keccak256,
  type Log,
  type PublicClient,
  parseEventLogs,
  type RpcTransactionReceipt,
  toEventSelector,
} from 'viem';

/**
 * The logs of one block, read so that an incomplete answer is noticed (issue 39): by the block's
 * HASH (EIP-234: a node that does not have the block errors, it does not answer "nothing"), never by
 * a block range, so there is no range limit to hit and a range a backend has not indexed yet cannot
 * pass for an empty one. The block's logs bloom is the cross-check: when it says one of the contracts
 * may have emitted the event but the node returned no such log, the block's receipts
 * (`eth_getBlockReceipts`, one per transaction, counted against the block) are read instead.
 */

type BlockWithBloom = Pick<Block, 'hash' | 'logsBloom' | 'number'> & { transactions: readonly unknown[] };

const BLOOM_BYTES = 256;

/** The three bloom bits of a value (an address or a topic); computed once per value, checked per block. */
export function bloomBits(value: Hex): readonly number[] {
  const hash = hexToBytes(keccak256(value));
  const out: number[] = [];
  for (let i = 0; i < 6; i += 2) out.push((((hash[i] ?? 0) << 8) | (hash[i + 1] ?? 0)) & 0x7ff);
  return out;
}

function bloomHas(bits: Uint8Array, positions: readonly number[]): boolean {
  if (bits.length !== BLOOM_BYTES) return true; // no usable bloom: ask the receipts
  return positions.every((bit) => ((bits[BLOOM_BYTES - 1 - (bit >> 3)] ?? 0) & (1 << (bit & 7))) !== 0);
}

/** Whether a logs bloom may hold `value` (an address or topic): false means surely not (no false negatives). */
export function bloomMayContain(bloom: Hex, value: Hex): boolean {
  return bloomHas(hexToBytes(bloom), bloomBits(value));
}

/** A topic value to look for in a block's logs (a deposit address as an indexed `to`), with its bloom bits. */
export interface WatchedTopic {
  topic: Hex;
  bits: readonly number[];
}

/** An address as the 32-byte topic of an indexed address argument, lower case. */
export const addressTopic = (address: string): Hex => `0x${address.slice(2).toLowerCase().padStart(64, '0')}`;

export class IncompleteBlockError extends Error {
  constructor(block: bigint | null, what: string) {
    super(`block ${block}: ${what} (node not in sync; retried)`);
  }
}

/**
 * The block's `event` logs of the given contracts, complete or an error. `watched`: topics (deposit
 * addresses) whose presence in the bloom without a returned log carrying them means a partial answer.
 */
export async function blockEventLogs<E extends AbiEvent>(
  client: PublicClient,
  block: BlockWithBloom,
  addresses: readonly Address[],
  event: E,
  watched: readonly WatchedTopic[] = [],
): Promise<Log[]> {
  if (addresses.length === 0 || !block.hash) return [];
  const logs = (await client.getLogs({ address: [...addresses], event, blockHash: block.hash })) as Log[];
  for (const l of logs) {
    if (l.blockHash !== block.hash) throw new IncompleteBlockError(block.number, 'a log of another block');
  }
  const topic = toEventSelector(event);
  const emitted = new Set(logs.map((l) => l.address.toLowerCase()));
  const suspicious = addresses.some(
    (a) =>
      !emitted.has(a.toLowerCase()) &&
      bloomMayContain(block.logsBloom ?? '0x', a) &&
      bloomMayContain(block.logsBloom ?? '0x', topic),
  );
  if (suspicious || partial(block, logs, addresses, topic, watched))
    return receiptLogs(client, block, addresses, event);
  return logs;
}

/**
 * A partial answer: the contracts did emit the event here (some logs came back), and the bloom says a
 * watched topic (a deposit address) may be in the block, but no returned log carries it. A bloom false
 * positive costs one eth_getBlockReceipts; a dropped deposit log costs nothing.
 */
function partial(
  block: BlockWithBloom,
  logs: readonly Log[],
  addresses: readonly Address[],
  topic: Hex,
  watched: readonly WatchedTopic[],
): boolean {
  if (watched.length === 0 || addresses.length === 0) return false;
  const bits = hexToBytes(block.logsBloom ?? '0x');
  if (!bloomHas(bits, bloomBits(topic))) return false;
  const returned = new Set(logs.flatMap((l) => l.topics.map((t) => (t ?? '').toLowerCase())));
  return watched.some((w) => !returned.has(w.topic) && bloomHas(bits, w.bits));
}

async function receiptLogs<E extends AbiEvent>(
  client: PublicClient,
  block: BlockWithBloom,
  addresses: readonly Address[],
  event: E,
): Promise<Log[]> {
  const raw = (await client.request({
    method: 'eth_getBlockReceipts' as never,
    params: [block.hash as Hash] as never,
  })) as RpcTransactionReceipt[] | null;
  if (!raw || raw.length !== block.transactions.length) {
    throw new IncompleteBlockError(
      block.number,
      `${raw?.length ?? 'no'} receipts for ${block.transactions.length} transactions`,
    );
  }
  const wanted = new Set(addresses.map((a) => a.toLowerCase()));
  const logs: Log[] = [];
  for (const r of raw.map((x) => formatTransactionReceipt(x))) {
    if (r.blockHash !== block.hash) throw new IncompleteBlockError(block.number, 'a receipt of another block');
    for (const l of r.logs) if (wanted.has(l.address.toLowerCase())) logs.push(l as Log);
  }
  return parseEventLogs({ abi: [event] as AbiEvent[], logs }) as Log[];
}
