import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Static, Type } from 'typebox';
import { Compile } from 'typebox/compile';
import { unsafeSettings } from './config-checks.ts';
import type { S3Options } from './modules/uploads/s3-store.ts';

/** Repository root (two levels above server/src). */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

const Port = Type.Integer({ minimum: 1, maximum: 65535 });

/**
 * Environment variables read at start-up. Every key is the variable's name.
 * Empty strings count as unset.
 */
const EnvSchema = Type.Object({
  NODE_ENV: Type.Enum(['development', 'production', 'test']),
  HOST: Type.String({ minLength: 1 }),
  PORT: Port,
  LOG_LEVEL: Type.Enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']),
  DATABASE_URL: Type.Optional(Type.String({ pattern: '^postgres(ql)?://' })),
  DATA_DIR: Type.String({ minLength: 1 }),
  PG_PORT: Type.Optional(Port),
  DATABASE_POOL_MAX: Type.Integer({ minimum: 1, maximum: 200 }),
  STATIC_DIR: Type.String({ minLength: 1 }),
  BODY_LIMIT: Type.Integer({ minimum: 1024 }),
  RATE_LIMIT_MAX: Type.Integer({ minimum: 1 }),
  RATE_LIMIT_WINDOW_MS: Type.Integer({ minimum: 1000 }),
  TRUST_PROXY: Type.Boolean(),
  SHUTDOWN_TIMEOUT_MS: Type.Integer({ minimum: 0 }),
  SMTP_URL: Type.Optional(Type.String({ pattern: '^smtps?://' })),
  DEV_MAILBOX: Type.Optional(Type.Boolean()),
  DEV_CLOCK: Type.Optional(Type.Boolean()),
  MAIL_FROM: Type.String({ minLength: 3 }),
  MAIL_DAILY_LIMIT: Type.Integer({ minimum: 1, maximum: 1000 }),
  UPLOAD_QUOTA_BYTES: Type.Integer({ minimum: 1024 * 1024 }),
  S3_ENDPOINT: Type.Optional(Type.String({ pattern: '^https?://' })),
  S3_BUCKET: Type.Optional(Type.String({ pattern: '^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$' })),
  S3_REGION: Type.Optional(Type.String({ minLength: 1 })),
  S3_ACCESS_KEY_ID: Type.Optional(Type.String({ minLength: 1 })),
  S3_SECRET_ACCESS_KEY: Type.Optional(Type.String({ minLength: 1 })),
  SESSION_IDLE_MINUTES: Type.Integer({ minimum: 1 }),
  SESSION_ABSOLUTE_HOURS: Type.Integer({ minimum: 1 }),
  SESSION_SECURE_COOKIE: Type.Enum(['auto', 'always', 'never']),
  SESSION_MAX_PER_USER: Type.Integer({ minimum: 1, maximum: 100 }),
  CODE_IP_HOURLY_LIMIT: Type.Integer({ minimum: 1 }),
  SIGNER_ENABLED: Type.Boolean(),
  SIGNER_MNEMONIC_FILE: Type.Optional(Type.String({ minLength: 1 })),
  SIGNER_POLL_MS: Type.Integer({ minimum: 50, maximum: 600_000 }),
  SIGNER_REPLACE_AFTER_MS: Type.Integer({ minimum: 0, maximum: 86_400_000 }),
  SIGNER_MAX_REPLACEMENTS: Type.Integer({ minimum: 0, maximum: 32 }),
  SIGNER_SWEEP_INTERVAL_MS: Type.Integer({ minimum: 0, maximum: 86_400_000 }),
  SIGNER_MAX_FEE_PER_GAS_WEI: Type.Optional(Type.String({ pattern: '^\\d{1,30}$' })),
  WITHDRAW_AUTO_REVIEW_LIMITS: Type.String({
    pattern: '^([A-Z]{2,10}=\\d+(\\.\\d+)?(,[A-Z]{2,10}=\\d+(\\.\\d+)?)*)?$',
  }),
  PRICE_FEED_URL: Type.Optional(Type.String({ pattern: '^https?://' })),
  PRICE_FEED_API_KEY: Type.Optional(Type.String({ minLength: 1 })),
  PRICE_MAX_AGE_MS: Type.Integer({ minimum: 1000 }),
  PRICE_REFRESH_MS: Type.Optional(Type.Integer({ minimum: 500 })),
  PRICE_SANDBOX_PORT: Type.Optional(Port),
  CONVERT_QUOTE_TTL_MS: Type.Integer({ minimum: 1000 }),
  CONVERT_SEED_LIQUIDITY: Type.Optional(Type.Boolean()),
  EXCHANGE_FIXED_WINDOW_MS: Type.Integer({ minimum: 10_000, maximum: 86_400_000 }),
  EXCHANGE_MAX_UNPAID_ORDERS: Type.Integer({ minimum: 1, maximum: 100 }),
  EXCHANGE_FLOAT_WINDOW_MS: Type.Integer({ minimum: 600_000, maximum: 7 * 86_400_000 }),
  EXCHANGE_LATE_DEPOSIT_WATCH_MS: Type.Integer({ minimum: 3_600_000, maximum: 30 * 86_400_000 }),
  ETHEREUM_RPC_URL: Type.Optional(Type.String({ pattern: '^https?://' })),
  BSC_RPC_URL: Type.Optional(Type.String({ pattern: '^https?://' })),
  TRONGRID_URL: Type.Optional(Type.String({ pattern: '^https?://' })),
  ESPLORA_BITCOIN_URL: Type.Optional(Type.String({ pattern: '^https?://' })),
  ESPLORA_DOGECOIN_URL: Type.Optional(Type.String({ pattern: '^https?://' })),
  LOCAL_CHAINS: Type.Optional(Type.Boolean()),
  ANVIL_BLOCK_TIME_S: Type.Integer({ minimum: 0, maximum: 60 }),
  WATCHER_POLL_MS: Type.Integer({ minimum: 20, maximum: 600_000 }),
});

type Env = Static<typeof EnvSchema>;

type OptionalKeys =
  | 'DATABASE_URL'
  | 'S3_ENDPOINT'
  | 'S3_BUCKET'
  | 'S3_REGION'
  | 'S3_ACCESS_KEY_ID'
  | 'S3_SECRET_ACCESS_KEY'
  | 'PG_PORT'
  | 'SMTP_URL'
  | 'DEV_MAILBOX'
  | 'DEV_CLOCK'
  | 'PRICE_FEED_URL'
  | 'PRICE_FEED_API_KEY'
  | 'PRICE_REFRESH_MS'
  | 'PRICE_SANDBOX_PORT'
  | 'CONVERT_SEED_LIQUIDITY'
  | 'ETHEREUM_RPC_URL'
  | 'BSC_RPC_URL'
  | 'TRONGRID_URL'
  | 'ESPLORA_BITCOIN_URL'
  | 'ESPLORA_DOGECOIN_URL'
  | 'LOCAL_CHAINS'
  | 'SIGNER_MNEMONIC_FILE'
  | 'SIGNER_MAX_FEE_PER_GAS_WEI';

const defaults: Omit<Env, OptionalKeys | 'LOG_LEVEL'> = {
  NODE_ENV: 'development',
  HOST: '127.0.0.1',
  PORT: 8080,
  DATA_DIR: path.join(repoRoot, '.data'),
  STATIC_DIR: path.join(repoRoot, '.deploy'),
  BODY_LIMIT: 1024 * 1024,
  RATE_LIMIT_MAX: 1000,
  DATABASE_POOL_MAX: 10,
  RATE_LIMIT_WINDOW_MS: 60_000,
  TRUST_PROXY: false,
  SHUTDOWN_TIMEOUT_MS: 10_000,
  MAIL_FROM: 'CW Wallet <no-reply@localhost>',
  MAIL_DAILY_LIMIT: 20,
  UPLOAD_QUOTA_BYTES: 200 * 1024 * 1024,
  SESSION_IDLE_MINUTES: 30,
  SESSION_ABSOLUTE_HOURS: 7 * 24,
  SESSION_SECURE_COOKIE: 'auto',
  SESSION_MAX_PER_USER: 10,
  CODE_IP_HOURLY_LIMIT: 10,
  SIGNER_ENABLED: true,
  SIGNER_POLL_MS: 1000,
  SIGNER_REPLACE_AFTER_MS: 60_000,
  SIGNER_MAX_REPLACEMENTS: 5,
  SIGNER_SWEEP_INTERVAL_MS: 30_000,
  WITHDRAW_AUTO_REVIEW_LIMITS: '',
  PRICE_MAX_AGE_MS: 120_000,
  CONVERT_QUOTE_TTL_MS: 10_000,
  EXCHANGE_FIXED_WINDOW_MS: 20 * 60_000,
  EXCHANGE_MAX_UNPAID_ORDERS: 5,
  EXCHANGE_FLOAT_WINDOW_MS: 24 * 3_600_000,
  EXCHANGE_LATE_DEPOSIT_WATCH_MS: 7 * 86_400_000,
  ANVIL_BLOCK_TIME_S: 1,
  WATCHER_POLL_MS: 250,
};

export interface Config {
  nodeEnv: Env['NODE_ENV'];
  host: string;
  port: number;
  logLevel: Env['LOG_LEVEL'];
  /** When unset, an embedded PostgreSQL is started in `<dataDir>/pg`. */
  databaseUrl: string | undefined;
  dataDir: string;
  /** Port for the embedded PostgreSQL; a free port when unset. */
  pgPort: number | undefined;
  /** Connections of this instance's pool (N instances: N x this against max_connections). */
  databasePoolMax: number;
  staticDir: string;
  bodyLimit: number;
  rateLimit: { max: number; windowMs: number };
  trustProxy: boolean;
  shutdownTimeoutMs: number;
  /** nodemailer SMTP URL; unset: mail goes to the dev mailbox (/dev/mailbox, not in production). */
  smtpUrl: string | undefined;
  mailFrom: string;
  /** Mails a user may send from the app in 24 hours (modules/user-mail). */
  mailDailyLimit: number;
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
   * Withdrawals (modules/withdrawals, signer/). `signerEnabled`: start the signer child process (it reads
   * SIGNER_MNEMONIC_FILE, default DATA_DIR/keys/dev-mnemonic.txt). `autoReviewLimits`: per-coin 24-hour
   * auto-approval limits in whole coins, e.g. "USDT=5000,ETH=2" (unset coins keep review-policy.ts's).
   */
  wallet: { signerEnabled: boolean; autoReviewLimits: string };
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
    /** Fund system_liquidity from system_external once at start-up; default: on unless production. */
    seedLiquidity: boolean;
  };
  /**
   * Exchange orders (modules/exchange): how long a fixed rate (and its deposit window) holds, how long a
   * float order waits for its deposit, how long an expired order's address is still watched for a late
   * deposit (then refunded), and how many unpaid orders a user may hold.
   */
  exchange: { fixedWindowMs: number; floatWindowMs: number; lateDepositWatchMs: number; maxUnpaidOrders: number };
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

const check = Compile(EnvSchema);
const integerKeys = new Set([
  'MAIL_DAILY_LIMIT',
  'UPLOAD_QUOTA_BYTES',
  'PORT',
  'PG_PORT',
  'DATABASE_POOL_MAX',
  'BODY_LIMIT',
  'RATE_LIMIT_MAX',
  'RATE_LIMIT_WINDOW_MS',
  'SHUTDOWN_TIMEOUT_MS',
  'SESSION_IDLE_MINUTES',
  'SESSION_ABSOLUTE_HOURS',
  'SESSION_MAX_PER_USER',
  'CODE_IP_HOURLY_LIMIT',
  'PRICE_MAX_AGE_MS',
  'PRICE_REFRESH_MS',
  'PRICE_SANDBOX_PORT',
  'CONVERT_QUOTE_TTL_MS',
  'EXCHANGE_FIXED_WINDOW_MS',
  'EXCHANGE_MAX_UNPAID_ORDERS',
  'EXCHANGE_FLOAT_WINDOW_MS',
  'EXCHANGE_LATE_DEPOSIT_WATCH_MS',
  'ANVIL_BLOCK_TIME_S',
  'WATCHER_POLL_MS',
  'SIGNER_POLL_MS',
  'SIGNER_REPLACE_AFTER_MS',
  'SIGNER_MAX_REPLACEMENTS',
  'SIGNER_SWEEP_INTERVAL_MS',
]);
const booleanKeys = new Set(['TRUST_PROXY', 'CONVERT_SEED_LIQUIDITY', 'LOCAL_CHAINS', 'DEV_MAILBOX', 'DEV_CLOCK']);
booleanKeys.add('SIGNER_ENABLED');

function convert(key: string, raw: string): unknown {
  if (integerKeys.has(key)) return /^-?\d+$/.test(raw) ? Number(raw) : raw;
  if (booleanKeys.has(key)) {
    if (raw === 'true' || raw === '1') return true;
    if (raw === 'false' || raw === '0') return false;
    return raw;
  }
  return raw;
}

function describe(key: string, schema: Record<string, unknown> | undefined): string {
  if (!schema) return 'is not a known variable';
  if (Array.isArray(schema.enum)) return `must be one of ${schema.enum.join(', ')}`;
  if (schema.type === 'integer') {
    const range = [
      schema.minimum === undefined ? '' : `>= ${schema.minimum}`,
      schema.maximum === undefined ? '' : `<= ${schema.maximum}`,
    ]
      .filter(Boolean)
      .join(' and ');
    return `must be an integer${range ? ` ${range}` : ''}`;
  }
  if (schema.type === 'boolean') return 'must be true, false, 1 or 0';
  if (typeof schema.pattern === 'string') return `must match ${schema.pattern}`;
  return `is invalid (${key})`;
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

/**
 * Reads and validates the configuration from environment variables.
 * Throws ConfigError naming every bad variable.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // Development logs every request (at debug); production keeps to info and above.
  const nodeEnv = env.NODE_ENV?.trim() || defaults.NODE_ENV;
  const input: Record<string, unknown> = { ...defaults, LOG_LEVEL: nodeEnv === 'production' ? 'info' : 'debug' };
  for (const key of Object.keys(EnvSchema.properties)) {
    const raw = env[key];
    if (raw !== undefined && raw.trim() !== '') input[key] = convert(key, raw.trim());
  }
  if (!check.Check(input)) {
    const issues = new Map<string, string>();
    for (const error of check.Errors(input)) {
      const key = error.instancePath.replace(/^\//, '');
      if (!key || issues.has(key)) continue;
      const schema = (EnvSchema.properties as unknown as Record<string, Record<string, unknown> | undefined>)[key];
      issues.set(key, `${key} ${describe(key, schema)} (got ${JSON.stringify(env[key] ?? '')})`);
    }
    throw new ConfigError([...issues.values()]);
  }
  const e = input as Env;
  assertSafeDefaults(e, env);
  return {
    nodeEnv: e.NODE_ENV,
    host: e.HOST,
    port: e.PORT,
    logLevel: e.LOG_LEVEL,
    databaseUrl: e.DATABASE_URL,
    dataDir: path.resolve(e.DATA_DIR),
    pgPort: e.PG_PORT,
    databasePoolMax: e.DATABASE_POOL_MAX,
    staticDir: path.resolve(e.STATIC_DIR),
    bodyLimit: e.BODY_LIMIT,
    rateLimit: { max: e.RATE_LIMIT_MAX, windowMs: e.RATE_LIMIT_WINDOW_MS },
    trustProxy: e.TRUST_PROXY,
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    mailDailyLimit: e.MAIL_DAILY_LIMIT,
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
    wallet: { signerEnabled: e.SIGNER_ENABLED, autoReviewLimits: e.WITHDRAW_AUTO_REVIEW_LIMITS },
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
      seedLiquidity: e.CONVERT_SEED_LIQUIDITY ?? e.NODE_ENV !== 'production',
    },
    exchange: {
      fixedWindowMs: e.EXCHANGE_FIXED_WINDOW_MS,
      floatWindowMs: e.EXCHANGE_FLOAT_WINDOW_MS,
      lateDepositWatchMs: e.EXCHANGE_LATE_DEPOSIT_WATCH_MS,
      maxUnpaidOrders: e.EXCHANGE_MAX_UNPAID_ORDERS,
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
