import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Tests only: a JSON-RPC proxy on 127.0.0.1 in front of an anvil that misbehaves like real backends
 * do (issue 39): a node that lags behind the chain, HTTP 429 for a while, an `eth_getLogs` answered
 * `[]` for a range it has not indexed, a block-range limit, errors on chosen methods. Batches are
 * answered call by call. Faults are plain mutable fields, changed by the test between ticks.
 */
export interface RpcFaults {
  /** The node reports its tip this many blocks below the real one and has no block above it. */
  lagBlocks: number;
  /** The next N HTTP requests are answered 429 Too Many Requests. */
  http429: number;
  /** The next N eth_getLogs calls answer [] whatever the range. */
  emptyLogs: number;
  /** The next N eth_getLogs answers holding two or more logs lose their last one (a partial answer). */
  partialLogs: number;
  /** eth_getLogs over more blocks than this fails with -32005 (0: no limit; a block-hash query has no range). */
  maxLogRange: number;
  /** Methods answered with a JSON-RPC error (-32000, not retried by viem) while listed. */
  failing: Set<string>;
  /** Methods the node does not serve (-32601 method not found), e.g. the debug API. */
  missing: Set<string>;
}

interface Call {
  jsonrpc: '2.0';
  id: number | string;
  method: string;
  params?: unknown[];
}

export interface FaultProxy {
  url: string;
  faults: RpcFaults;
  /** Calls seen per method (for assertions). */
  calls: Map<string, number>;
  close(): Promise<void>;
}

const hexToNumber = (v: unknown) => (typeof v === 'string' && v.startsWith('0x') ? Number.parseInt(v, 16) : undefined);

export async function startFaultProxy(upstream: string): Promise<FaultProxy> {
  const faults: RpcFaults = {
    lagBlocks: 0,
    http429: 0,
    emptyLogs: 0,
    partialLogs: 0,
    maxLogRange: 0,
    failing: new Set(),
    missing: new Set(),
  };
  const calls = new Map<string, number>();

  async function forward(call: Call): Promise<unknown> {
    const res = await fetch(upstream, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(call),
    });
    return res.json();
  }

  async function realTip(): Promise<number> {
    const answer = (await forward({ jsonrpc: '2.0', id: 0, method: 'eth_blockNumber' })) as { result: string };
    return hexToNumber(answer.result) ?? 0;
  }

  async function answer(call: Call): Promise<unknown> {
    calls.set(call.method, (calls.get(call.method) ?? 0) + 1);
    const reply = (result: unknown) => ({ jsonrpc: '2.0', id: call.id, result });
    const error = (code: number, message: string) => ({ jsonrpc: '2.0', id: call.id, error: { code, message } });
    if (faults.failing.has(call.method)) return error(-32000, 'upstream request timed out');
    if (faults.missing.has(call.method))
      return error(-32601, `the method ${call.method} does not exist/is not available`);
    const params = call.params ?? [];
    if (faults.lagBlocks > 0) {
      const visible = (await realTip()) - faults.lagBlocks;
      if (call.method === 'eth_blockNumber') return reply(`0x${Math.max(visible, 0).toString(16)}`);
      if (call.method === 'eth_getBlockByNumber' && (hexToNumber(params[0]) ?? 0) > visible) return reply(null);
    }
    if (call.method === 'eth_getLogs') {
      const filter = (params[0] ?? {}) as { fromBlock?: string; toBlock?: string; blockHash?: string };
      if (faults.emptyLogs > 0) {
        faults.emptyLogs--;
        return reply([]);
      }
      const span = (hexToNumber(filter.toBlock) ?? 0) - (hexToNumber(filter.fromBlock) ?? 0) + 1;
      if (faults.maxLogRange > 0 && !filter.blockHash && span > faults.maxLogRange) {
        return error(-32005, `query exceeds max block range ${faults.maxLogRange}`);
      }
      if (faults.partialLogs > 0) {
        const full = (await forward(call)) as { result?: unknown[] };
        if (Array.isArray(full.result) && full.result.length >= 2) {
          faults.partialLogs--;
          return { ...full, result: full.result.slice(0, -1) };
        }
        return full;
      }
    }
    return forward(call);
  }

  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      if (faults.http429 > 0) {
        faults.http429--;
        res.writeHead(429, { 'content-type': 'text/plain' });
        res.end('Too Many Requests');
        return;
      }
      const parsed = JSON.parse(body) as Call | Call[];
      const work = Array.isArray(parsed) ? Promise.all(parsed.map(answer)) : answer(parsed);
      work.then(
        (out) => {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify(out));
        },
        (err: unknown) => {
          res.writeHead(502, { 'content-type': 'text/plain' });
          res.end(String(err));
        },
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    faults,
    calls,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
