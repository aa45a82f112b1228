import { createCoinGeckoSource } from '../../modules/prices/coingecko-source.ts';
import { startSandboxPriceServer } from '../../modules/prices/sandbox/sandbox-price-server.ts';
import { createPriceService } from '../../modules/prices/service.ts';
import { buildTestApp } from '../../test/app.ts';
import { createDb } from '../create-db.ts';

/**
 * One API instance of the multi-host rehearsal (netns-rehearsal.test.ts), run as its own process inside
 * its network namespace (`ip netns exec`): the app on DATABASE_URL (the libpq-style multi-host URL),
 * listening on HOST:PORT (the namespace's address), with its own sandbox price feed on the namespace's
 * loopback. Test sessions (the x-test-user-id header). Prints `ready` when listening; SIGTERM stops it.
 */
const url = process.env.DATABASE_URL;
const host = process.env.HOST;
const port = Number.parseInt(process.env.PORT ?? '', 10);
if (!url || !host || !Number.isInteger(port)) throw new Error('DATABASE_URL, HOST and PORT are required');

const now = () => new Date();
const db = createDb(url, { max: 4 });
const sandbox = await startSandboxPriceServer({ now });
const prices = createPriceService({
  source: createCoinGeckoSource({ baseUrl: sandbox.url, kind: 'sandbox', now }),
  now,
  maxAgeMs: 600_000,
});
await prices.refresh();
const app = buildTestApp({ db, now, prices, convertQuoteTtlMs: 120_000 });
await app.listen({ host, port });
process.stdout.write('ready\n');

process.once('SIGTERM', () => {
  void (async () => {
    await app.close();
    prices.stop();
    await sandbox.close();
    await db.destroy();
    process.exit(0);
  })();
});
