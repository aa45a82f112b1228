import { createCoinGeckoSource } from './coingecko-source.ts';
import { startSandboxPriceServer } from './sandbox/sandbox-price-server.ts';
import { createPriceService, type PriceService } from './service.ts';

export interface PricesConfig {
  feedUrl: string | undefined;
  apiKey: string | undefined;
  maxAgeMs: number;
  refreshMs: number | undefined;
  sandboxPort: number | undefined;
}

interface Log {
  info(obj: unknown, msg?: string): void;
  warn(obj: unknown, msg?: string): void;
}

/**
 * Server start-up: the live feed when PRICE_FEED_URL is set, otherwise the embedded sandbox feed
 * on 127.0.0.1 (its prices are labelled `sandbox` everywhere). Either way the same CoinGecko
 * adapter reads it, and the cache refreshes in the background.
 */
export async function startPrices(
  config: PricesConfig,
  log: Log,
  now: () => Date = () => new Date(),
): Promise<{ prices: PriceService; close: () => Promise<void> }> {
  const sandbox = config.feedUrl
    ? null
    : await startSandboxPriceServer(config.sandboxPort === undefined ? {} : { port: config.sandboxPort });
  const baseUrl = config.feedUrl ?? sandbox?.url ?? '';
  const kind = sandbox ? 'sandbox' : 'live';
  const prices = createPriceService({
    source: createCoinGeckoSource({ baseUrl, kind, apiKey: config.apiKey, now }),
    now,
    maxAgeMs: config.maxAgeMs,
    refreshMs: config.refreshMs ?? (sandbox ? 2000 : 10_000),
    onError: (err) => log.warn({ err }, 'price refresh failed; keeping the previous prices until they go stale'),
  });
  log.info({ source: kind, url: sandbox ? baseUrl : new URL(baseUrl).origin }, `price feed: ${kind}`);
  // First prices before the server takes requests, so the first quote is not refused.
  await prices.refresh();
  prices.start();
  return {
    prices,
    close: async () => {
      prices.stop();
      await sandbox?.close();
    },
  };
}
