import type { CoinCode } from '../../catalogue/catalogue.ts';

/**
 * Deterministic sandbox prices: each coin's USD price is a random walk in ticks of `tickMs` from
 * `epoch`, driven by a seeded integer PRNG, so the same seed and time always give the same price.
 * Prices are integers of 10^-8 USD; a step moves a price by -0.20% .. +0.20% (floored), never below
 * 1/100 of its start. Stablecoins stay at exactly 1 USD.
 */

export const USD_PRICE_SCALE = 10n ** 8n;
/** Step range in basis points of the price, each way. */
const STEP_BPS_MAX = 20;
/** Most steps computed in one call; beyond that the walk pauses (a sandbox left running for years). */
const STEPS_PER_CALL_MAX = 1_000_000;

/** Start prices in USD (decimal text), roughly the market's. */
export const sandboxStartUsd: Record<CoinCode, string> = {
  BTC: '90000',
  ETH: '3000',
  USDT: '1',
  USDC: '1',
  TUSD: '1',
  TRX: '0.28',
  BNB: '900',
  DOGE: '0.15',
};

const stable = new Set<CoinCode>(['USDT', 'USDC', 'TUSD']);

/** mulberry32: a small, well-known 32-bit PRNG; integer state, integer output. */
function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
}

function scaled(decimal: string): bigint {
  const [whole = '0', fraction = ''] = decimal.split('.');
  return BigInt(whole) * USD_PRICE_SCALE + BigInt(fraction.padEnd(8, '0').slice(0, 8));
}

export interface RandomWalk {
  /** USD price of one whole coin at `at`, in 10^-8 USD; the same for the same seed and tick. */
  usdPriceAt(coin: CoinCode, at: Date): bigint;
  /** Start time of the tick containing `at`. */
  tickStart(at: Date): Date;
}

export function createRandomWalk(options: { seed: number; epoch: Date; tickMs: number }): RandomWalk {
  const { epoch, tickMs } = options;
  if (!(tickMs >= 1)) throw new Error('random walk: tickMs >= 1');
  const walks = new Map<CoinCode, { tick: number; price: bigint; floor: bigint; next: () => number }>();
  const tickOf = (at: Date) => Math.max(0, Math.floor((at.getTime() - epoch.getTime()) / tickMs));

  return {
    tickStart: (at) => new Date(epoch.getTime() + tickOf(at) * tickMs),
    usdPriceAt(coin, at) {
      const start = scaled(sandboxStartUsd[coin]);
      if (stable.has(coin)) return start;
      let walk = walks.get(coin);
      const target = tickOf(at);
      // Going back in time (a test's clock) restarts the walk from tick 0: still deterministic.
      if (!walk || walk.tick > target) {
        const coinSeed = [...coin].reduce((h, ch) => Math.imul(h ^ ch.charCodeAt(0), 16777619), options.seed);
        walk = { tick: 0, price: start, floor: start / 100n, next: mulberry32(coinSeed) };
        walks.set(coin, walk);
      }
      const steps = Math.min(target - walk.tick, STEPS_PER_CALL_MAX);
      for (let i = 0; i < steps; i++) {
        const bps = BigInt((walk.next() % (2 * STEP_BPS_MAX + 1)) - STEP_BPS_MAX);
        const moved = (walk.price * (10_000n + bps)) / 10_000n;
        walk.price = moved < walk.floor ? walk.floor : moved;
      }
      walk.tick += steps;
      return walk.price;
    },
  };
}
