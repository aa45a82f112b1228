import path from 'node:path';
import { unsafeSettings } from './config-checks.ts';
import { type Env, parseEnv } from './config-env.ts';
import { parseTrustProxy, type TrustProxy } from './http/trust-proxy.ts';
import { parseOrigins } from './modules/security/webauthn-config.ts';
import type { S3Options } from './modules/uploads/s3-store.ts';

export { repoRoot } from './config-env.ts';

export interface Config {
  nodeEnv: Env['NODE_ENV'];
  host: string;
  port: number;
  logLevel: Env['LOG_LEVEL'];
  /** When unset, an embedded PostgreSQL is started in `<dataDir>/pg`. */
  databaseUrl: string | undefined;
  /** A replica (or several hosts) for lag-tolerant reads (db/replication/read-routing.ts); unset: the primary. */
  databaseReadUrl: string | undefined;
  replicaMaxLagMs: number;
  /** REDIS_URL: the rate limit and failed-attempt counters go there; unset: PostgreSQL. */
  redisUrl: string | undefined;
  dataDir: string;
  /** Port for the embedded PostgreSQL; a free port when unset. */
  pgPort: number | undefined;
  /** Connections of this instance's pool (N instances: N x this against max_connections). */
  databasePoolMax: number;
  staticDir: string;
  bodyLimit: number;
  rateLimit: { max: number; windowMs: number };
  /** Which X-Forwarded-* hops are believed (http/trust-proxy.ts). */
  trustProxy: TrustProxy;
  shutdownTimeoutMs: number;
  /** nodemailer SMTP URL; unset: mail goes to the dev mailbox (/dev/mailbox, not in production). */
  smtpUrl: string | undefined;
  mailFrom: string;
  /** Links in security mails (PUBLIC_ORIGIN) and the unfreeze hold (UNFREEZE_HOLD_HOURS). */
  security: { publicOrigin: string; unfreezeHoldHours: number };
  /** Mails a user may send from the app in 24 hours (modules/user-mail). */
  mailDailyLimit: number;
  /** Where user mail may go besides the user's own address. */
  supportEmail: string;
  /** Uploads: bytes a user may keep, and S3-compatible storage when S3_* is set (else DATA_DIR/uploads). */
  uploads: { quotaBytes: number; s3: S3Options | undefined };
  /**
   * DEV_MAILBOX: serve /dev/mailbox (every user's codes, to loopback clients only). Off unless set;
   * `npm start` sets it for its local default. Refused in production and on a non-loopback HOST.
   */
  devMailbox: boolean;
  /** DEV_CLOCK: POST /dev/clock moves the server's time (and the local chains') forward; QA only. */
  devClock: boolean;
  session: {
    idleMinutes: number;
    absoluteHours: number;
    secureCookie: 'auto' | 'always' | 'never';
    maxPerUser: number;
  };
  /** Verification codes per client IP per hour. */
  codeIpHourlyLimit: number;
  /**
   * Passkeys: WEBAUTHN_RP_ID (the site's domain; never an IP address, browsers refuse those) and
   * WEBAUTHN_ORIGINS (comma-separated page origins; unset: any port of the RP ID, e.g. http://localhost:8080).
   */
  webauthn: { rpId: string; origins: string[]; optionsPerIpMinute: number; answersPerIpMinute: number };
  /**
   * Withdrawals (modules/withdrawals, signer/). `signerEnabled`: start the signer child process (it reads
   * SIGNER_MNEMONIC_FILE, default DATA_DIR/keys/dev-mnemonic.txt). `autoReviewLimits`: per-coin 24-hour
   * auto-approval limits in whole coins, e.g. "USDT=5000,ETH=2" (unset coins keep review-policy.ts's).
   * `outflowBudgetUsd`: the 24-hour review budget of withdrawals, sends and sells together, whole USD.
   */
  wallet: { signerEnabled: boolean; autoReviewLimits: string; outflowBudgetUsd: string; allowlistHoldHours: number };
  /**
   * The signer process (src/signer/main.ts): the only reader of the mnemonic. `pollMs` between ticks;
   * no receipt `replaceAfterMs` after an attempt's first broadcast -> a fee-bumped replacement with
   * the same nonce, at most `maxReplacements` of them and, when set, never above `maxFeePerGasWei`.
   */
  signer: {
    mnemonicFile: string;
    pollMs: number;
    replaceAfterMs: number;
    maxReplacements: number;
    maxFeePerGasWei: bigint | undefined;
    /** Time between sweep rounds (deposit addresses -> hot wallet, signer/sweeper.ts); 0: no sweeps. */
    sweepIntervalMs: number;
  };
  prices: {
    /** Base URL of a CoinGecko-compatible simple-price API; unset: the embedded sandbox feed on loopback. */
    feedUrl: string | undefined;
    apiKey: string | undefined;
    /** Older prices refuse quotes. */
    maxAgeMs: number;
    /** Refresh period; unset: 10 s live, 2 s sandbox. */
    refreshMs: number | undefined;
    /** Port of the sandbox feed; unset: a free port. */
    sandboxPort: number | undefined;
  };
  convert: {
    quoteTtlMs: number;
    /**
     * API instances sharing the database (`API_INSTANCES`, the launcher sets it): each instance keeps
     * 1/N of the database's accept batches and quote writers in flight (accept-batcher.ts).
     */
    instances: number;
    /** Fund system_liquidity from system_external once at start-up; default: on unless production. */
    seedLiquidity: boolean;
  };
  /**
   * Exchange orders (modules/exchange): how long a fixed rate (and its deposit window) holds, how long a
   * float order waits for its deposit, how long an expired order's address is still watched for a late
   * deposit (then refunded), and how many unpaid orders a user may hold.
   */
  exchange: {
    fixedWindowMs: number;
    floatWindowMs: number;
    lateDepositWatchMs: number;
    maxUnpaidOrders: number;
    /** How often the exchange engine looks at its orders (deposits, confirmations, payouts). */
    engineIntervalMs: number;
  };
  /**
   * Chains (modules/chain). An EVM network without an RPC URL gets a local anvil when `localChains`
   * (LOCAL_CHAINS; default on unless NODE_ENV=production)
   * (state in DATA_DIR/chains, a block every `anvilBlockTimeS` s; 0 = a block per transaction).
   * TRON/Bitcoin/Dogecoin are watched only when their API URL is set. Deposit xpubs and hot wallet
   * addresses: XPUB_<NETWORK>, HOT_WALLET_<NETWORK> (all or none), else a development key in DATA_DIR/keys.
   */
  chains: {
    ethereumRpcUrl: string | undefined;
    bscRpcUrl: string | undefined;
    trongridUrl: string | undefined;
    esploraBitcoinUrl: string | undefined;
    esploraDogecoinUrl: string | undefined;
    localChains: boolean;
    anvilBlockTimeS: number;
    watcherPollMs: number;
  };
}

export class ConfigError extends Error {
  readonly issues: string[];
  constructor(issues: string[]) {
    super(`Invalid configuration:\n${issues.map((i) => `  - ${i}`).join('\n')}`);
    this.name = 'ConfigError';
    this.issues = issues;
  }
}

export { isLoopbackHost, PRODUCTION_REQUIRED } from './config-checks.ts';

/** S3 storage is all of S3_ENDPOINT, S3_BUCKET, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY, or none. */
function s3Options(e: Env): S3Options | undefined {
  const parts = [e.S3_ENDPOINT, e.S3_BUCKET, e.S3_ACCESS_KEY_ID, e.S3_SECRET_ACCESS_KEY];
  if (parts.every((p) => p === undefined)) return undefined;
  if (!e.S3_ENDPOINT || !e.S3_BUCKET || !e.S3_ACCESS_KEY_ID || !e.S3_SECRET_ACCESS_KEY)
    throw new ConfigError([
      'S3_ENDPOINT, S3_BUCKET, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together: set all or none',
    ]);
  return {
    endpoint: e.S3_ENDPOINT,
    bucket: e.S3_BUCKET,
    region: e.S3_REGION ?? 'us-east-1',
    accessKeyId: e.S3_ACCESS_KEY_ID,
    secretAccessKey: e.S3_SECRET_ACCESS_KEY,
  };
}

function assertSafeDefaults(e: Env, env: NodeJS.ProcessEnv): void {
  const issues = unsafeSettings(e, env);
  if (issues.length > 0) throw new ConfigError(issues);
}

function trustProxyOf(raw: string): TrustProxy {
  const parsed = parseTrustProxy(raw);
  if ('issue' in parsed) throw new ConfigError([parsed.issue]);
  return parsed.value;
}

/**
 * Reads and validates the configuration from environment variables.
 * Throws ConfigError naming every bad variable.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = parseEnv(env);
  if (parsed.settings === undefined) throw new ConfigError(parsed.issues);
  const e = parsed.settings;
  assertSafeDefaults(e, env);
  return {
    nodeEnv: e.NODE_ENV,
    host: e.HOST,
    port: e.PORT,
    logLevel: e.LOG_LEVEL,
    databaseUrl: e.DATABASE_URL,
    databaseReadUrl: e.DATABASE_READ_URL,
    replicaMaxLagMs: e.REPLICA_MAX_LAG_MS,
    redisUrl: e.REDIS_URL,
    dataDir: path.resolve(e.DATA_DIR),
    pgPort: e.PG_PORT,
    databasePoolMax: e.DATABASE_POOL_MAX,
    staticDir: path.resolve(e.STATIC_DIR),
    bodyLimit: e.BODY_LIMIT,
    rateLimit: { max: e.RATE_LIMIT_MAX, windowMs: e.RATE_LIMIT_WINDOW_MS },
    trustProxy: trustProxyOf(e.TRUST_PROXY),
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    security: {
      publicOrigin: e.PUBLIC_ORIGIN ?? `http://${e.HOST.includes(':') ? `[${e.HOST}]` : e.HOST}:${e.PORT}`,
      unfreezeHoldHours: e.UNFREEZE_HOLD_HOURS,
    },
    mailDailyLimit: e.MAIL_DAILY_LIMIT,
    supportEmail: e.SUPPORT_EMAIL,
    uploads: { quotaBytes: e.UPLOAD_QUOTA_BYTES, s3: s3Options(e) },
    devMailbox: e.DEV_MAILBOX ?? false,
    devClock: e.DEV_CLOCK ?? false,
    session: {
      idleMinutes: e.SESSION_IDLE_MINUTES,
      absoluteHours: e.SESSION_ABSOLUTE_HOURS,
      secureCookie: e.SESSION_SECURE_COOKIE,
      maxPerUser: e.SESSION_MAX_PER_USER,
    },
    codeIpHourlyLimit: e.CODE_IP_HOURLY_LIMIT,
    webauthn: {
      rpId: e.WEBAUTHN_RP_ID,
      origins: parseOrigins(e.WEBAUTHN_ORIGINS),
      optionsPerIpMinute: e.WEBAUTHN_OPTIONS_PER_IP_MINUTE,
      answersPerIpMinute: e.WEBAUTHN_ANSWERS_PER_IP_MINUTE,
    },
    wallet: {
      signerEnabled: e.SIGNER_ENABLED,
      autoReviewLimits: e.WITHDRAW_AUTO_REVIEW_LIMITS,
      outflowBudgetUsd: e.OUTFLOW_BUDGET_USD,
      allowlistHoldHours: e.WITHDRAWAL_ALLOWLIST_HOLD_HOURS,
    },
    signer: {
      mnemonicFile: path.resolve(e.SIGNER_MNEMONIC_FILE ?? path.join(e.DATA_DIR, 'keys', 'dev-mnemonic.txt')),
      pollMs: e.SIGNER_POLL_MS,
      replaceAfterMs: e.SIGNER_REPLACE_AFTER_MS,
      maxReplacements: e.SIGNER_MAX_REPLACEMENTS,
      maxFeePerGasWei: e.SIGNER_MAX_FEE_PER_GAS_WEI === undefined ? undefined : BigInt(e.SIGNER_MAX_FEE_PER_GAS_WEI),
      sweepIntervalMs: e.SIGNER_SWEEP_INTERVAL_MS,
    },
    prices: {
      feedUrl: e.PRICE_FEED_URL,
      apiKey: e.PRICE_FEED_API_KEY,
      maxAgeMs: e.PRICE_MAX_AGE_MS,
      refreshMs: e.PRICE_REFRESH_MS,
      sandboxPort: e.PRICE_SANDBOX_PORT,
    },
    convert: {
      quoteTtlMs: e.CONVERT_QUOTE_TTL_MS,
      instances: e.API_INSTANCES,
      seedLiquidity: e.CONVERT_SEED_LIQUIDITY ?? e.NODE_ENV !== 'production',
    },
    exchange: {
      fixedWindowMs: e.EXCHANGE_FIXED_WINDOW_MS,
      floatWindowMs: e.EXCHANGE_FLOAT_WINDOW_MS,
      lateDepositWatchMs: e.EXCHANGE_LATE_DEPOSIT_WATCH_MS,
      maxUnpaidOrders: e.EXCHANGE_MAX_UNPAID_ORDERS,
      engineIntervalMs: e.EXCHANGE_ENGINE_INTERVAL_MS,
    },
    chains: {
      ethereumRpcUrl: e.ETHEREUM_RPC_URL,
      bscRpcUrl: e.BSC_RPC_URL,
      trongridUrl: e.TRONGRID_URL,
      esploraBitcoinUrl: e.ESPLORA_BITCOIN_URL,
      esploraDogecoinUrl: e.ESPLORA_DOGECOIN_URL,
      localChains: e.LOCAL_CHAINS ?? e.NODE_ENV !== 'production',
      anvilBlockTimeS: e.ANVIL_BLOCK_TIME_S,
      watcherPollMs: e.WATCHER_POLL_MS,
    },
  };
}
