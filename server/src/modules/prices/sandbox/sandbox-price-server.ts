import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type CoinCode, coinCodes } from '../../catalogue/catalogue.ts';
import { coinGeckoIds } from '../coingecko-source.ts';
import { floorTimes, parseDecimal, rational, toDecimal } from '../rational.ts';
import { sandboxUsdRates } from './fx-rates.ts';
import { createRandomWalk, USD_PRICE_SCALE } from './random-walk.ts';

/**
 * The embedded default price feed: an HTTP server on loopback that answers the CoinGecko
 * simple-price request (`GET /api/v3/simple/price?ids=..&vs_currencies=..`) with the same JSON
 * shape, from a deterministic random walk. The real adapter talks to it like to the real API, so
 * the code path is the same in development, in tests and in production.
 */

export interface SandboxPriceServer {
  /** e.g. http://127.0.0.1:41234 */
  url: string;
  close(): Promise<void>;
}

export interface SandboxPriceServerOptions {
  /** Default 0: a free port. */
  port?: number;
  seed?: number;
  /** Prices move once per tick; default 1 s. */
  tickMs?: number;
  now?: () => Date;
  /** Tick 0 of the walk; default: start-up time. */
  epoch?: Date;
}

const idToCoin = new Map<string, CoinCode>(coinCodes.map((c) => [coinGeckoIds[c], c]));
const rateOf = new Map<string, ReturnType<typeof parseDecimal>>(
  Object.entries(sandboxUsdRates).map(([code, rate]) => [code.toLowerCase(), parseDecimal(rate)]),
);
/** Bounds on a request: as many ids and currencies as we know, with some slack. */
const LIST_ITEMS_MAX = 64;

export async function startSandboxPriceServer(options: SandboxPriceServerOptions = {}): Promise<SandboxPriceServer> {
  const now = options.now ?? (() => new Date());
  const walk = createRandomWalk({
    seed: options.seed ?? 20_260_101,
    epoch: options.epoch ?? now(),
    tickMs: options.tickMs ?? 1000,
  });

  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://sandbox');
    if (req.method !== 'GET' || url.pathname !== '/api/v3/simple/price') {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
      return;
    }
    const list = (name: string) =>
      (url.searchParams.get(name) ?? '')
        .split(',')
        .map((s) => s.trim().toLowerCase())
        .filter(Boolean)
        .slice(0, LIST_ITEMS_MAX);
    const at = now();
    const updatedAtSeconds = Math.floor(walk.tickStart(at).getTime() / 1000);
    const withUpdated = url.searchParams.get('include_last_updated_at') === 'true';
    // JSON written by hand so each price is exact decimal text, as the real API's numbers are.
    const entries: string[] = [];
    for (const id of list('ids')) {
      const coin = idToCoin.get(id);
      if (!coin) continue;
      const usd = rational(walk.usdPriceAt(coin, at), USD_PRICE_SCALE);
      const fields: string[] = [];
      for (const currency of list('vs_currencies')) {
        const rate = rateOf.get(currency);
        if (!rate) continue;
        const price = rational(
          floorTimes({ num: usd.num * rate.num, den: usd.den * rate.den }, USD_PRICE_SCALE),
          USD_PRICE_SCALE,
        );
        fields.push(`${JSON.stringify(currency)}:${toDecimal(price, 8)}`);
      }
      if (withUpdated) fields.push(`"last_updated_at":${updatedAtSeconds}`);
      entries.push(`${JSON.stringify(id)}:{${fields.join(',')}}`);
    }
    res
      .writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' })
      .end(`{${entries.join(',')}}`);
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}
