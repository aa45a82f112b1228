import type { Kysely } from 'kysely';
import { afterAll, beforeAll } from 'vitest';
import type { App } from '../../app.ts';
import type { Database } from '../../db/schema.ts';
import { buildTestApp } from '../../test/app.ts';
import type { CoinCode } from '../catalogue/catalogue.ts';
import { createLedgerService } from '../ledger/service.ts';
import { createCoinGeckoSource } from '../prices/coingecko-source.ts';
import { type SandboxPriceServer, startSandboxPriceServer } from '../prices/sandbox/sandbox-price-server.ts';
import { createPriceService, type PriceService } from '../prices/service.ts';
import { seedLiquidity } from './liquidity.ts';

export const T0 = new Date('2030-01-02T03:04:05.000Z');

/** A test clock shared by the app, the price cache and the sandbox feed. */
export interface Clock {
  now: () => Date;
  set(at: Date): void;
  advance(ms: number): void;
}

export function createClock(start = T0): Clock {
  let at = start;
  return {
    now: () => at,
    set: (next) => {
      at = next;
    },
    advance: (ms) => {
      at = new Date(at.getTime() + ms);
    },
  };
}

/** The real adapter reading the sandbox feed over loopback, on the test clock. */
export async function startTestPrices(clock: Clock): Promise<{ prices: PriceService; sandbox: SandboxPriceServer }> {
  const sandbox = await startSandboxPriceServer({ now: clock.now, epoch: T0 });
  const prices = createPriceService({
    source: createCoinGeckoSource({ baseUrl: sandbox.url, kind: 'sandbox', now: clock.now }),
    now: clock.now,
    maxAgeMs: 60_000,
  });
  await prices.refresh();
  return { prices, sandbox };
}

export function buildConvertApp(db: Kysely<Database>, clock: Clock, prices: PriceService) {
  return buildTestApp({
    db,
    now: clock.now,
    prices,
    convertQuoteTtlMs: 10_000,
    rateLimit: { max: 1e9, windowMs: 60_000 },
  });
}

/** Credits a user as a confirmed deposit would (through the ledger). */
export async function credit(db: Kysely<Database>, userId: string, asset: CoinCode, amountMinor: bigint, key: string) {
  await createLedgerService({ db, now: () => T0 }).deposit({ idempotencyKey: key, userId, asset, amountMinor });
}

export interface ConvertTestApp {
  readonly app: App;
  readonly clock: Clock;
  readonly prices: PriceService;
}

/**
 * For one test file: the convert app on a test clock, with sandbox prices and seeded liquidity
 * (`liquidity`: coin -> whole units, as seedLiquidity takes them), closed after the file.
 */
export function useConvertApp(
  database: { readonly db: Kysely<Database> },
  liquidity?: Parameters<typeof seedLiquidity>[2],
): ConvertTestApp {
  let state: (ConvertTestApp & { sandbox: SandboxPriceServer }) | undefined;
  beforeAll(async () => {
    const clock = createClock();
    const { prices, sandbox } = await startTestPrices(clock);
    state = { app: buildConvertApp(database.db, clock, prices), clock, prices, sandbox };
    await seedLiquidity(database.db, T0, liquidity);
  });
  afterAll(async () => {
    await state?.app.close();
    await state?.sandbox.close();
  });
  const started = () => {
    if (!state) throw new Error('useConvertApp: used before its beforeAll ran');
    return state;
  };
  return {
    get app() {
      return started().app;
    },
    get clock() {
      return started().clock;
    },
    get prices() {
      return started().prices;
    },
  };
}
