import { getAddress, type Hash, type PublicClient } from 'viem';
import type { CoinCode, NetworkCode } from '../catalogue/catalogue.ts';
import { IncompleteBlockError } from './evm-logs.ts';
import type { ObservedTransfer } from './watcher.ts';

/**
 * Native coin moved by a contract inside a transaction (issue 39 item 5): a Safe or smart-account
 * wallet, a multisend or an exchange's batch payout pays with internal calls, and the transaction's own
 * value says nothing about it. The block's calls are traced (`debug_traceBlockByHash`, callTracer; by
 * hash, so the trace is of the block that was read) and every successful value-carrying CALL or
 * SELFDESTRUCT below the top level is a transfer. A failed frame (or any frame under it) moved nothing.
 * Position within the transaction: the k-th such transfer in call order gets output index -2 - k
 * (-1 is the transaction's own value), stable when the transaction is re-mined.
 */
interface CallFrame {
  type?: string;
  from?: string;
  to?: string;
  value?: string;
  error?: string;
  calls?: CallFrame[];
}
interface TxTrace {
  txHash?: string;
  result?: CallFrame;
  error?: string;
}

interface TracedBlock {
  hash: Hash | null;
  number: bigint | null;
  transactions: readonly { hash: Hash }[];
}

/** Frames below the top level, bounded (a call tree is at most 1024 deep; a block holds finitely many). */
const MAX_FRAMES_PER_BLOCK = 1_000_000;

export async function internalNativeTransfers(
  client: PublicClient,
  block: TracedBlock,
  network: NetworkCode,
  coin: CoinCode,
): Promise<ObservedTransfer[]> {
  if (!block.hash || block.number === null || block.transactions.length === 0) return [];
  const traces = (await client.request({
    method: 'debug_traceBlockByHash' as never,
    params: [block.hash, { tracer: 'callTracer' }] as never,
  })) as TxTrace[] | null;
  if (!traces || traces.length !== block.transactions.length) {
    throw new IncompleteBlockError(
      block.number,
      `${traces?.length ?? 'no'} traces for ${block.transactions.length} transactions`,
    );
  }
  const out: ObservedTransfer[] = [];
  let frames = 0;
  traces.forEach((trace, i) => {
    const txHash = trace.txHash ?? block.transactions[i]?.hash;
    if (!txHash || trace.error || !trace.result || trace.result.error) return; // a failed transaction moved nothing
    let k = 0;
    const walk = (frame: CallFrame) => {
      for (const call of frame.calls ?? []) {
        if (++frames > MAX_FRAMES_PER_BLOCK) throw new Error(`block ${block.number}: too many call frames`);
        if (call.error) continue; // reverted: neither it nor its sub-calls moved coins
        const value = call.value ? BigInt(call.value) : 0n;
        const moves = call.type === 'CALL' || call.type === 'SELFDESTRUCT';
        if (moves && value > 0n && call.to && call.from) {
          out.push({
            network,
            coin,
            txHash,
            outputIndex: -2 - k,
            fromAddress: getAddress(call.from),
            toAddress: getAddress(call.to),
            chainAmount: value,
            blockNumber: block.number as bigint,
            blockHash: block.hash as string,
          });
          k++;
        }
        walk(call);
      }
    };
    walk(trace.result);
  });
  return out;
}

/** JSON-RPC codes of "no such method here" (-32601 method not found, -32004 method not supported). */
const NO_METHOD_CODES = new Set([-32601, -32004]);
const NO_METHOD_TEXT =
  /method .*(not found|does not exist|not available|not supported|is not enabled)|unsupported method/i;

/**
 * Whether the node serves `debug_traceBlockByHash` (one call, at start, when tracing is configured): a
 * node without the debug API answers "method not found"; one with it answers (an error about the
 * made-up block hash is fine). Other failures (a 429, a timeout) throw: asked again next tick.
 */
export async function tracingSupported(client: PublicClient): Promise<boolean> {
  try {
    await client.request({
      method: 'debug_traceBlockByHash' as never,
      params: [`0x${'00'.repeat(32)}`, { tracer: 'callTracer' }] as never,
    });
    return true;
  } catch (err) {
    for (let e: unknown = err; e instanceof Error; e = e.cause) {
      const code = (e as { code?: unknown }).code;
      if (typeof code === 'number' && NO_METHOD_CODES.has(code)) return false;
      if (NO_METHOD_TEXT.test(e.message)) return false;
      if (typeof code === 'number' && code !== 0) return true; // the method ran and refused the block
    }
    throw err;
  }
}

/**
 * Whether to trace internal calls, asked each tick: off unless configured; configured, the node is
 * probed once (tracingSupported) and a node without the debug API turns it off (`onUnsupported` warns).
 * A probe that failed for another reason is asked again next tick.
 */
export function tracingSwitch(client: PublicClient, configured: boolean, onUnsupported: () => void) {
  let tracing: boolean | undefined = configured ? undefined : false;
  return async function traceInternal(): Promise<boolean> {
    if (tracing === undefined) {
      tracing = await tracingSupported(client);
      if (!tracing) onUnsupported();
    }
    return tracing;
  };
}
