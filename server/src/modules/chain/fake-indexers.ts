import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Tests only: Esplora and TronGrid stand-ins on 127.0.0.1 that page like the real APIs (Esplora: 25
 * confirmed transactions a page, `/txs/chain/:last_seen_txid`; TronGrid: `limit` + `meta.fingerprint`,
 * `contract_address` filter) and whose block hashes a test can change (reorgs). State is plain data
 * the test mutates between ticks.
 */
type Route = (req: IncomingMessage, url: URL, body: string) => { status?: number; body: string } | undefined;

export async function loopback(route: Route): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      const answer = route(req, new URL(req.url ?? '/', 'http://x'), body);
      res.writeHead(answer?.status ?? (answer ? 200 : 404), { 'content-type': 'application/json' });
      res.end(answer?.body ?? '{"error":"not found"}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A block hash made up from a height and a fork tag (64 hex digits). */
export const fakeHash = (height: number, fork = 0) =>
  `${height.toString(16).padStart(16, '0')}${fork.toString(16).padStart(8, '0')}${'0'.repeat(40)}`;

export interface EsploraTx {
  txid: string;
  vout: { scriptpubkey_address: string; value: number | string }[];
  /** Unset: in the mempool. */
  height?: number;
}

export interface FakeEsplora {
  url: string;
  tipHeight: number;
  /** Fork tag per height (0 unless a test reorganised it). */
  forks: Map<number, number>;
  /** Per address, newest first. */
  txs: Map<string, EsploraTx[]>;
  requests: string[];
  /** Called after a block hash was answered (a test changes the chain between two questions). */
  afterBlockHash?: (height: number) => void;
  close(): Promise<void>;
}

const ESPLORA_PAGE = 25;

export async function startFakeEsplora(tipHeight: number): Promise<FakeEsplora> {
  const state: Omit<FakeEsplora, 'url' | 'close'> = {
    tipHeight,
    forks: new Map<number, number>(),
    txs: new Map<string, EsploraTx[]>(),
    requests: [],
  };
  const hashAt = (h: number) => fakeHash(h, state.forks.get(h) ?? 0);
  const shape = (t: EsploraTx) => ({
    txid: t.txid,
    vin: [],
    vout: t.vout,
    status:
      t.height === undefined
        ? { confirmed: false }
        : { confirmed: true, block_height: t.height, block_hash: hashAt(t.height) },
  });
  const server = await loopback((_req, url) => {
    state.requests.push(url.pathname);
    if (url.pathname === '/blocks/tip/height') return { body: String(state.tipHeight) };
    if (url.pathname === '/blocks/tip/hash') return { body: hashAt(state.tipHeight) };
    const height = /^\/block-height\/(\d+)$/.exec(url.pathname);
    if (height) {
      const h = Number(height[1]);
      const answer = h <= state.tipHeight ? { body: hashAt(h) } : { status: 404, body: 'Block not found' };
      state.afterBlockHash?.(h);
      return answer;
    }
    const m = /^\/address\/([^/]+)\/txs(\/chain(?:\/([0-9a-f]+))?)?$/.exec(url.pathname);
    if (!m) return undefined;
    const all = state.txs.get(decodeURIComponent(m[1] ?? '')) ?? [];
    const confirmed = all.filter((t) => t.height !== undefined && t.height <= state.tipHeight);
    const after = m[3] ? confirmed.findIndex((t) => t.txid === m[3]) + 1 : 0;
    const page = confirmed.slice(after, after + ESPLORA_PAGE);
    const mempool = m[2] ? [] : all.filter((t) => t.height === undefined).slice(0, 50);
    return { body: JSON.stringify([...mempool, ...page].map(shape)) };
  });
  return Object.assign(state, server);
}

export interface TronNativeTx {
  txID: string;
  to: string;
  amount: number;
  height: number;
  /** Default TransferContract (TRX); e.g. TransferAssetContract for TRC-10 spam. */
  type?: string;
}
export interface TronTokenTransfer {
  txID: string;
  contract: string;
  to: string;
  value: string;
  height: number;
}

export interface FakeTronGrid {
  url: string;
  tipHeight: number;
  forks: Map<number, number>;
  /** Per base58 address, newest first. */
  native: Map<string, TronNativeTx[]>;
  trc20: Map<string, TronTokenTransfer[]>;
  requests: string[];
  close(): Promise<void>;
}

const TRON_MAX_LIMIT = 200;

/** `toHex`: a base58 T-address as the 41-prefixed hex TronGrid puts in TransferContract values. */
export async function startFakeTronGrid(tipHeight: number, toHex: (base58: string) => string): Promise<FakeTronGrid> {
  const state = {
    tipHeight,
    forks: new Map<number, number>(),
    native: new Map<string, TronNativeTx[]>(),
    trc20: new Map<string, TronTokenTransfer[]>(),
    requests: [] as string[],
  };
  const hashAt = (h: number) => fakeHash(h, state.forks.get(h) ?? 0);
  const heights = new Map<string, number>();
  // The fingerprint names the last item returned (stable when newer items arrive on top, like TronGrid's).
  const page = <T extends { txID: string }>(items: T[], url: URL) => {
    const limit = Math.min(Number(url.searchParams.get('limit') ?? 20), TRON_MAX_LIMIT);
    const fingerprint = url.searchParams.get('fingerprint');
    const from = fingerprint ? items.findLastIndex((t) => t.txID === fingerprint) + 1 : 0;
    const slice = items.slice(from, from + limit);
    const more = from + limit < items.length;
    const next = more ? slice.at(-1)?.txID : undefined;
    return { slice, meta: { at: 1, page_size: slice.length, ...(next ? { fingerprint: next } : {}) } };
  };
  const server = await loopback((req, url, body) => {
    state.requests.push(`${req.method} ${url.pathname}${url.search}`);
    if (url.pathname === '/wallet/getnowblock') {
      return {
        body: JSON.stringify({
          blockID: hashAt(state.tipHeight),
          block_header: { raw_data: { number: state.tipHeight } },
        }),
      };
    }
    if (url.pathname === '/wallet/getblockbynum') {
      const { num } = JSON.parse(body) as { num: number };
      return { body: num <= state.tipHeight ? JSON.stringify({ blockID: hashAt(num) }) : '{}' };
    }
    if (url.pathname === '/wallet/gettransactioninfobyid') {
      const { value } = JSON.parse(body) as { value: string };
      return { body: JSON.stringify({ id: value, blockNumber: heights.get(value), receipt: { result: 'SUCCESS' } }) };
    }
    const m = /^\/v1\/accounts\/([^/]+)\/transactions(\/trc20)?$/.exec(url.pathname);
    if (!m) return undefined;
    const address = decodeURIComponent(m[1] ?? '');
    if (m[2]) {
      const contract = url.searchParams.get('contract_address');
      const all = (state.trc20.get(address) ?? []).filter(
        (t) => t.height <= state.tipHeight && (!contract || t.contract === contract),
      );
      for (const t of all) heights.set(t.txID, t.height);
      const { slice, meta } = page(all, url);
      const data = slice.map((t) => ({
        transaction_id: t.txID,
        token_info: { address: t.contract, decimals: 6 },
        from: 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7',
        to: t.to,
        type: 'Transfer',
        value: t.value,
      }));
      return { body: JSON.stringify({ data, success: true, meta }) };
    }
    const all = (state.native.get(address) ?? []).filter((t) => t.height <= state.tipHeight);
    const { slice, meta } = page(all, url);
    const data = slice.map((t) => ({
      ret: [{ contractRet: 'SUCCESS' }],
      txID: t.txID,
      blockNumber: t.height,
      raw_data: {
        contract: [
          {
            type: t.type ?? 'TransferContract',
            parameter: {
              value: {
                amount: t.amount,
                owner_address: '4173b0c5c1d2b4a0b5f6e3c2a1d0e9f8a7b6c5d4e3',
                to_address: toHex(t.to),
              },
            },
          },
        ],
      },
    }));
    return { body: JSON.stringify({ data, success: true, meta }) };
  });
  return Object.assign(state, server);
}
