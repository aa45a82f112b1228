import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Static, Type } from 'typebox';
import { Compile } from 'typebox/compile';

// The environment's form (config.ts maps it to the Config the app reads): the variables, their
// defaults, and reading them from strings, with one message per bad variable.

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
  DATABASE_READ_URL: Type.Optional(Type.String({ pattern: '^postgres(ql)?://' })),
  /** A replica whose replay lags more than this is not read (db/replication/read-routing.ts). */
  REPLICA_MAX_LAG_MS: Type.Integer({ minimum: 100, maximum: 600_000 }),
  REDIS_URL: Type.Optional(Type.String({ pattern: '^rediss?://' })),
  DATA_DIR: Type.String({ minLength: 1 }),
  PG_PORT: Type.Optional(Port),
  DATABASE_POOL_MAX: Type.Integer({ minimum: 1, maximum: 200 }),
  API_INSTANCES: Type.Integer({ minimum: 1, maximum: 64 }),
  STATIC_DIR: Type.String({ minLength: 1 }),
  BODY_LIMIT: Type.Integer({ minimum: 1024 }),
  RATE_LIMIT_MAX: Type.Integer({ minimum: 1 }),
  RATE_LIMIT_WINDOW_MS: Type.Integer({ minimum: 1000 }),
  /** false, true (a proxy on loopback or the private networks) or the proxies' addresses (http/trust-proxy.ts). */
  TRUST_PROXY: Type.String({ minLength: 1, maxLength: 4000 }),
  SHUTDOWN_TIMEOUT_MS: Type.Integer({ minimum: 0 }),
  SMTP_URL: Type.Optional(Type.String({ pattern: '^smtps?://' })),
  DEV_MAILBOX: Type.Optional(Type.Boolean()),
  DEV_CLOCK: Type.Optional(Type.Boolean()),
  MAIL_FROM: Type.String({ minLength: 3 }),
  /** The app's address as users reach it (links in mails); default http://HOST:PORT. */
  PUBLIC_ORIGIN: Type.Optional(Type.String({ pattern: '^https?://[^/?#]+$', maxLength: 200 })),
  /** How long an asked-for unfreeze waits before the account thaws (issue 31). */
  UNFREEZE_HOLD_HOURS: Type.Integer({ minimum: 1, maximum: 24 * 30 }),
  /** How long nothing leaves an account after a security change (issue 31; withdrawals/outflow-holds.ts). */
  SECURITY_CHANGE_HOLD_HOURS: Type.Integer({ minimum: 1, maximum: 24 * 30 }),
  MAIL_DAILY_LIMIT: Type.Integer({ minimum: 1, maximum: 1000 }),
  SUPPORT_EMAIL: Type.String({ minLength: 3, maxLength: 320, pattern: '^[^\\s@]+@[^\\s@]+$' }),
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
  WEBAUTHN_RP_ID: Type.String({ pattern: '^[a-z0-9]([a-z0-9.-]{0,251}[a-z0-9])?$' }),
  WEBAUTHN_OPTIONS_PER_IP_MINUTE: Type.Integer({ minimum: 1, maximum: 1_000_000 }),
  WEBAUTHN_ANSWERS_PER_IP_MINUTE: Type.Integer({ minimum: 1, maximum: 1_000_000 }),
  WEBAUTHN_ORIGINS: Type.Optional(Type.String({ pattern: '^(https?://[^,\\s]+)(,\\s*https?://[^,\\s]+)*$' })),
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
  /** The 24-hour USD review budget withdrawals, sends and sells share (withdrawals/outflow-budget.ts). */
  OUTFLOW_BUDGET_USD: Type.String({ pattern: '^[1-9]\\d{0,11}$' }),
  /** Above this USD value a withdrawal needs two finance approvals (withdrawals/four-eyes.ts); read at each decision. */
  WITHDRAWAL_SECOND_APPROVAL_USD: Type.String({ pattern: '^[1-9]\\d{0,11}$' }),
  /** Hold of a newly trusted withdrawal-allowlist entry and of turning the allowlist off (modules/allowlist). */
  WITHDRAWAL_ALLOWLIST_HOLD_HOURS: Type.Integer({ minimum: 1, maximum: 720 }),
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
  EXCHANGE_ENGINE_INTERVAL_MS: Type.Integer({ minimum: 250, maximum: 60_000 }),
  ETHEREUM_RPC_URL: Type.Optional(Type.String({ pattern: '^https?://' })),
  BSC_RPC_URL: Type.Optional(Type.String({ pattern: '^https?://' })),
  TRONGRID_URL: Type.Optional(Type.String({ pattern: '^https?://' })),
  ESPLORA_BITCOIN_URL: Type.Optional(Type.String({ pattern: '^https?://' })),
  ESPLORA_DOGECOIN_URL: Type.Optional(Type.String({ pattern: '^https?://' })),
  LOCAL_CHAINS: Type.Optional(Type.Boolean()),
  ANVIL_BLOCK_TIME_S: Type.Integer({ minimum: 0, maximum: 60 }),
  WATCHER_POLL_MS: Type.Integer({ minimum: 20, maximum: 600_000 }),
});

export type Env = Static<typeof EnvSchema>;

type OptionalKeys =
  | 'DATABASE_URL'
  | 'DATABASE_READ_URL'
  | 'REDIS_URL'
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
  API_INSTANCES: 1,
  RATE_LIMIT_WINDOW_MS: 60_000,
  TRUST_PROXY: 'false',
  SHUTDOWN_TIMEOUT_MS: 10_000,
  REPLICA_MAX_LAG_MS: 5_000,
  MAIL_FROM: 'CW Wallet <no-reply@localhost>',
  UNFREEZE_HOLD_HOURS: 24,
  SECURITY_CHANGE_HOLD_HOURS: 24,
  MAIL_DAILY_LIMIT: 20,
  SUPPORT_EMAIL: 'support@wallet.example',
  UPLOAD_QUOTA_BYTES: 200 * 1024 * 1024,
  SESSION_IDLE_MINUTES: 30,
  SESSION_ABSOLUTE_HOURS: 7 * 24,
  SESSION_SECURE_COOKIE: 'auto',
  SESSION_MAX_PER_USER: 10,
  CODE_IP_HOURLY_LIMIT: 10,
  WEBAUTHN_RP_ID: 'localhost',
  WEBAUTHN_OPTIONS_PER_IP_MINUTE: 30,
  WEBAUTHN_ANSWERS_PER_IP_MINUTE: 30,
  SIGNER_ENABLED: true,
  SIGNER_POLL_MS: 1000,
  SIGNER_REPLACE_AFTER_MS: 60_000,
  SIGNER_MAX_REPLACEMENTS: 5,
  SIGNER_SWEEP_INTERVAL_MS: 30_000,
  WITHDRAW_AUTO_REVIEW_LIMITS: '',
  OUTFLOW_BUDGET_USD: '10000',
  WITHDRAWAL_SECOND_APPROVAL_USD: '10000',
  WITHDRAWAL_ALLOWLIST_HOLD_HOURS: 24,
  PRICE_MAX_AGE_MS: 120_000,
  CONVERT_QUOTE_TTL_MS: 10_000,
  EXCHANGE_FIXED_WINDOW_MS: 20 * 60_000,
  EXCHANGE_MAX_UNPAID_ORDERS: 5,
  EXCHANGE_FLOAT_WINDOW_MS: 24 * 3_600_000,
  EXCHANGE_LATE_DEPOSIT_WATCH_MS: 7 * 86_400_000,
  EXCHANGE_ENGINE_INTERVAL_MS: 3000,
  ANVIL_BLOCK_TIME_S: 1,
  WATCHER_POLL_MS: 250,
};

const check = Compile(EnvSchema);
const integerKeys = new Set([
  'MAIL_DAILY_LIMIT',
  'UPLOAD_QUOTA_BYTES',
  'PORT',
  'PG_PORT',
  'DATABASE_POOL_MAX',
  'API_INSTANCES',
  'BODY_LIMIT',
  'RATE_LIMIT_MAX',
  'RATE_LIMIT_WINDOW_MS',
  'SHUTDOWN_TIMEOUT_MS',
  'REPLICA_MAX_LAG_MS',
  'SESSION_IDLE_MINUTES',
  'SESSION_ABSOLUTE_HOURS',
  'WITHDRAWAL_ALLOWLIST_HOLD_HOURS',
  'UNFREEZE_HOLD_HOURS',
  'SECURITY_CHANGE_HOLD_HOURS',
  'WEBAUTHN_OPTIONS_PER_IP_MINUTE',
  'WEBAUTHN_ANSWERS_PER_IP_MINUTE',
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
  'EXCHANGE_ENGINE_INTERVAL_MS',
  'ANVIL_BLOCK_TIME_S',
  'WATCHER_POLL_MS',
  'SIGNER_POLL_MS',
  'SIGNER_REPLACE_AFTER_MS',
  'SIGNER_MAX_REPLACEMENTS',
  'SIGNER_SWEEP_INTERVAL_MS',
]);
const booleanKeys = new Set(['CONVERT_SEED_LIQUIDITY', 'LOCAL_CHAINS', 'DEV_MAILBOX', 'DEV_CLOCK']);
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

/**
 * The environment read against the schema (defaults filled in, empty strings unset): the settings, or
 * one message per bad variable.
 */
export function parseEnv(
  env: NodeJS.ProcessEnv,
): { settings: Env; issues: [] } | { settings: undefined; issues: string[] } {
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
    return { settings: undefined, issues: [...issues.values()] };
  }
  const crossed = crossSettingIssue(input as Env);
  if (crossed) return { settings: undefined, issues: [crossed] };
  return { settings: input as Env, issues: [] };
}

/**
 * Settings that are each valid but unsafe together. Automatic review approves with NO operator while
 * the user's 24 h outflow stays within OUTFLOW_BUDGET_USD; four eyes needs two operators above
 * WITHDRAWAL_SECOND_APPROVAL_USD. A budget above the four-eyes value would let a withdrawal worth more
 * than it go out with zero approvals (review-32wd L6), so the server refuses to start.
 */
function crossSettingIssue(env: Env): string | null {
  const budget = BigInt(env.OUTFLOW_BUDGET_USD);
  const fourEyes = BigInt(env.WITHDRAWAL_SECOND_APPROVAL_USD);
  if (budget <= fourEyes) return null;
  return `OUTFLOW_BUDGET_USD (${budget}) must not be above WITHDRAWAL_SECOND_APPROVAL_USD (${fourEyes}): automatic approval would pay, with no operator, more than four eyes allows one operator`;
}
