import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Kysely } from 'kysely';
import type { Address, PublicClient } from 'viem';
import { mnemonicToAccount } from 'viem/accounts';
import { type App, buildApp } from '../../app.ts';
import { insertAccount } from '../../modules/auth/accounts-repository.ts';
import { createClock, type Harness, nextIp, sessionCookie } from '../../modules/auth/test-helpers.ts';
import { type EvmChainRuntime, loadChainConfig } from '../../modules/chain/chain-config.ts';
import { devClient, type LocalChains, startLocalChains } from '../../modules/chain/local-chains.ts';
import { seedLiquidity } from '../../modules/convert/liquidity.ts';
import { fence, tryAcquire } from '../../modules/leases/lease.ts';
import { createLedgerService } from '../../modules/ledger/service.ts';
import { type SmtpSink, startSmtpSink } from '../../modules/mail/smtp-sink.ts';
import { createCoinGeckoSource } from '../../modules/prices/coingecko-source.ts';
import { type SandboxPriceServer, startSandboxPriceServer } from '../../modules/prices/sandbox/sandbox-price-server.ts';
import { createPriceService, type PriceService } from '../../modules/prices/service.ts';
import { testUsdPrices } from '../../modules/prices/test-prices.ts';
import { deviceHash } from '../../modules/security/device-cookie.ts';
import { rememberDevice } from '../../modules/security/devices-repository.ts';
import { autoReviewLimits } from '../../modules/withdrawals/review-policy.ts';
import { createSigner } from '../../signer/signer.ts';
import { testConsoleSurface } from '../../test/app.ts';
import { createDb } from '../create-db.ts';
import type { Database } from '../schema.ts';
import type { DrillAck, DrillUser } from './api-drill-load.ts';

/**
 * The failover drill's surroundings (test only): the local anvil with the hot wallet, the SMTP sink
 * the codes arrive in, the sandbox price feed, app instances on the multi-host DATABASE_URL (each its
 * own pool, as separate processes would have), and the real signer ticking on its own pool with the
 * signer lease's fencing token (taken before the failover, still valid after it).
 */
const MNEMONIC = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';
const hot = mnemonicToAccount(MNEMONIC, { accountIndex: 1 });

/** Hashing cost is not what the drill measures: a cheap stand-in for argon2id (2 cores, 64 clients). */
const cheapHasher = {
  hash: async (password: string) => `drill$${createHash('sha256').update(password).digest('hex')}`,
  verify: async (hash: string, password: string) =>
    hash === `drill$${createHash('sha256').update(password).digest('hex')}`,
  verifyDummy: async () => false as const,
  close: async () => undefined,
};

export interface DrillRig {
  chain: PublicClient;
  hot: Address;
  apps(url: string, count: number): Promise<App[]>;
  harness(app: App): Harness;
  signerLoop(url: string): { errors: string[]; stop(): Promise<void> };
  sessionAlive(app: App, ack: DrillAck): Promise<boolean>;
  stop(): Promise<void>;
}

export async function startDrillRig(options: { chainsDir: string }): Promise<DrillRig> {
  const keys = path.join(options.chainsDir, 'keys');
  mkdirSync(keys, { recursive: true, mode: 0o700 });
  writeFileSync(path.join(keys, 'dev-mnemonic.txt'), `${MNEMONIC}\n`, { mode: 0o600 });
  const chains: LocalChains = await startLocalChains({
    dataDir: options.chainsDir,
    networks: ['ethereum'],
    hotWallets: { ethereum: hot.address },
  });
  const runtime: EvmChainRuntime | undefined = loadChainConfig(options.chainsDir, {}).ethereum;
  if (!runtime) throw new Error('no ethereum chain');
  const sink: SmtpSink = await startSmtpSink();
  const now = () => new Date();
  const sandbox: SandboxPriceServer = await startSandboxPriceServer({ now });
  const prices: PriceService = createPriceService({
    source: createCoinGeckoSource({ baseUrl: sandbox.url, kind: 'sandbox', now }),
    now,
    maxAgeMs: 600_000,
  });
  await prices.refresh();

  const built: { app: App; db: Kysely<Database>; harness: Harness }[] = [];
  const loops: { stop(): Promise<void> }[] = [];
  const chain = devClient(runtime.rpcUrl, runtime.chainId) as unknown as PublicClient;

  return {
    chain,
    hot: hot.address,
    async apps(url, count) {
      for (let i = 0; i < count; i += 1) {
        const db = createDb(url, { max: 16 });
        if (i === 0) await seedLiquidity(db, now());
        const app = buildApp({
          db,
          now,
          console: testConsoleSurface,
          rateLimit: { max: 1_000_000, windowMs: 60_000 },
          auth: {
            hasher: cheapHasher,
            codeLimits: { resendAfterSeconds: 0, perAddressPerHour: 100_000, perIpPerHour: 100_000 },
          },
          mail: { smtpUrl: sink.url, pollIntervalMs: 50 },
          prices,
          convertQuoteTtlMs: 120_000,
          wallet: {
            prices: testUsdPrices,
            chains: () => ({ ethereum: runtime }),
            autoReviewLimits: autoReviewLimits({ ETH: '1000', USDT: '1000000' }),
          },
          hotWallets: { ethereum: hot.address },
        });
        await app.ready();
        built.push({ app, db, harness: { app, db, databaseUrl: url, sink, clock: createClock() } });
      }
      return built.map((b) => b.app);
    },
    harness(app) {
      const found = built.find((b) => b.app === app);
      if (!found) throw new Error('not a drill app');
      return found.harness;
    },
    signerLoop(url) {
      const db = createDb(url, { max: 4 });
      let token: bigint | null = null;
      const signer = createSigner({
        db,
        now,
        account: hot,
        chains: () => ({ ethereum: runtime }),
        fence: (trx) => fence(trx, 'signer', token ?? -1n),
      });
      let stopping = false;
      const errors: string[] = [];
      const done = (async () => {
        while (!stopping) {
          try {
            // Renewed every tick, as the signer process's leader loop does; the token survives the failover.
            token = await tryAcquire(db, 'signer', 'drill-signer', 30_000);
            if (token !== null) await signer.tick();
          } catch (err) {
            // A dead primary: the next tick runs on the promoted standby (the pool rediscovers it).
            if (errors.length < 20) errors.push(String(err));
          }
          await new Promise((r) => setTimeout(r, 100));
        }
      })();
      const loop = {
        errors,
        async stop() {
          stopping = true;
          await done;
          await db.destroy().catch(() => undefined);
        },
      };
      loops.push(loop);
      return loop;
    },
    async sessionAlive(app, ack) {
      if (!ack.cookie) return false;
      const res = await app.inject({ method: 'GET', url: '/api/me', headers: { cookie: ack.cookie } });
      return res.statusCode === 200;
    },
    async stop() {
      for (const loop of loops) await loop.stop();
      for (const b of built) {
        await b.app.close().catch(() => undefined);
        await b.db.destroy().catch(() => undefined);
      }
      prices.stop();
      await sandbox.close();
      await sink.close();
      await chains.stop();
    },
  };
}

/**
 * The drill's users, made directly (an account with the cheap hash and a known browser: registration
 * is not what the drill tests, and 64 code mails would cost more than the drill), then signed in
 * through the API; funded through the ledger.
 */
export async function drillUsers(
  rig: DrillRig,
  app: App,
  mix: { send: number; convert: number; withdraw: number; login: number },
): Promise<{ send: DrillUser[]; convert: DrillUser[]; withdraw: DrillUser[]; login: DrillUser[] }> {
  const { db } = rig.harness(app);
  const total = mix.send + mix.convert + mix.withdraw + mix.login;
  const password = 'Drill-Pass-34!';
  const passwordHash = await cheapHasher.hash(password);
  // Set-up on a loaded machine: a pool checkout that timed out ran nothing; try again.
  const retry = async <T>(fn: () => Promise<T>): Promise<T> => {
    for (let n = 1; ; n += 1) {
      try {
        return await fn();
      } catch (err) {
        if (n >= 5 || !/timeout|terminated|503/i.test(String(err))) throw err;
        await new Promise((r) => setTimeout(r, 500));
      }
    }
  };
  const one = async (i: number): Promise<DrillUser> => {
    const username = `drill_${process.pid % 10_000}_${i}`;
    const email = `${username}@example.com`;
    const at = new Date();
    const account = await retry(() =>
      insertAccount(db, { username, email, nickname: null, country: 'CN', passwordHash }, at),
    );
    const deviceId = randomBytes(32).toString('base64url');
    await retry(() =>
      rememberDevice(db, { userId: account.user_id, deviceHash: deviceHash(deviceId), userAgent: null }, at),
    );
    const device = `did=${deviceId}`;
    const res = await retry(async () => {
      const r = await app.inject({
        method: 'POST',
        url: '/api/auth/login',
        remoteAddress: nextIp(),
        headers: { cookie: device },
        payload: { identifier: username, password },
      });
      if (r.statusCode !== 200) throw new Error(`drill login ${username}: ${r.statusCode} ${r.body}`);
      return r;
    });
    return { id: account.user_id, email, username, password, device, cookie: sessionCookie(res) };
  };
  // A few at a time: the pool is the load's, not the set-up's (64 at once time out on a loaded machine).
  const users: DrillUser[] = [];
  for (let i = 0; i < total; i += 8) {
    users.push(...(await Promise.all(Array.from({ length: Math.min(8, total - i) }, (_, j) => one(i + j)))));
  }
  const ledger = createLedgerService({ db, now: () => new Date() });
  const send = users.slice(0, mix.send);
  const convert = users.slice(mix.send, mix.send + mix.convert);
  const withdraw = users.slice(mix.send + mix.convert, mix.send + mix.convert + mix.withdraw);
  const login = users.slice(mix.send + mix.convert + mix.withdraw);
  const funding = [
    ...[...send, ...convert].map((u) => ({ u, asset: 'USDT' as const, amountMinor: 10n ** 9n })),
    ...withdraw.map((u) => ({ u, asset: 'ETH' as const, amountMinor: 10n ** 18n })),
  ];
  for (let i = 0; i < funding.length; i += 8) {
    await Promise.all(
      funding
        .slice(i, i + 8)
        .map(({ u, asset, amountMinor }) =>
          retry(() => ledger.deposit({ idempotencyKey: `drill-fund-${u.id}`, userId: u.id, asset, amountMinor })),
        ),
    );
  }
  return { send, convert, withdraw, login };
}
