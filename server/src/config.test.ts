import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, PRODUCTION_REQUIRED, repoRoot } from './config.ts';
import { walletOptionsFromConfig } from './modules/wallet/wallet-module.ts';

/** Everything production must be given (values only need to be well-formed here). */
const PRODUCTION = {
  NODE_ENV: 'production',
  DATABASE_URL: 'postgres://app@db:5432/wallet',
  SMTP_URL: 'smtps://mailer:secret@smtp.example.com:465',
  PRICE_FEED_URL: 'https://pro-api.coingecko.com/api/v3',
  XPUB_ETHEREUM: 'xpub-e',
  XPUB_BSC: 'xpub-b',
  XPUB_TRON: 'xpub-t',
  XPUB_BITCOIN: 'xpub-btc',
  XPUB_DOGECOIN: 'xpub-d',
  HOT_WALLET_ETHEREUM: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
  HOT_WALLET_BSC: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
  SIGNER_MNEMONIC_FILE: '/run/secrets/hot-wallet-mnemonic',
  PAYOUT_DATA_KEY: 'MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=',
  SESSION_SECURE_COOKIE: 'always',
};

function issuesOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return err.issues;
    throw err;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig', () => {
  it('has defaults for everything', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      nodeEnv: 'development',
      host: '127.0.0.1',
      port: 8080,
      databaseUrl: undefined,
      pgPort: undefined,
      dataDir: path.join(repoRoot, '.data'),
      staticDir: path.join(repoRoot, '.deploy'),
      bodyLimit: 1024 * 1024,
      trustProxy: false,
    });
  });

  it('reads and converts variables', () => {
    const config = loadConfig({
      PORT: '9000',
      HOST: '0.0.0.0',
      DATABASE_URL: 'postgres://u:p@db:5432/app',
      PG_PORT: '5555',
      TRUST_PROXY: 'true',
      RATE_LIMIT_MAX: '5',
      DATA_DIR: '/tmp/x',
      LOG_LEVEL: 'debug',
    });
    expect(config).toMatchObject({
      port: 9000,
      host: '0.0.0.0',
      databaseUrl: 'postgres://u:p@db:5432/app',
      pgPort: 5555,
      trustProxy: ['loopback', 'uniquelocal'],
      rateLimit: { max: 5, windowMs: 60_000 },
      dataDir: '/tmp/x',
      logLevel: 'debug',
    });
  });

  it('logs at debug in development and at info in production unless LOG_LEVEL says otherwise', () => {
    expect(loadConfig({}).logLevel).toBe('debug');
    expect(loadConfig(PRODUCTION).logLevel).toBe('info');
    expect(loadConfig({ ...PRODUCTION, LOG_LEVEL: 'warn' }).logLevel).toBe('warn');
  });

  it('gives the signer process its settings, validated like every other (not parsed by hand)', () => {
    const defaults = loadConfig({ DATA_DIR: '/srv/cw' }).signer;
    expect(defaults).toEqual({
      mnemonicFile: path.resolve('/srv/cw/keys/dev-mnemonic.txt'),
      pollMs: 1000,
      replaceAfterMs: 60_000,
      maxReplacements: 5,
      maxFeePerGasWei: undefined,
      sweepIntervalMs: 30_000,
    });
    const set = loadConfig({ SIGNER_POLL_MS: '100', SIGNER_MAX_FEE_PER_GAS_WEI: '200000000000' }).signer;
    expect(set).toMatchObject({ pollMs: 100, maxFeePerGasWei: 200_000_000_000n });
    expect(() => loadConfig({ SIGNER_MAX_FEE_PER_GAS_WEI: '2e11' })).toThrow(/SIGNER_MAX_FEE_PER_GAS_WEI/);
    expect(() => loadConfig({ SIGNER_MAX_REPLACEMENTS: '33' })).toThrow(/SIGNER_MAX_REPLACEMENTS must be an integer/);
  });

  it('reads how many API instances share the database (1 unless the launcher or the operator says)', () => {
    expect(loadConfig({}).convert.instances).toBe(1);
    expect(loadConfig({ API_INSTANCES: '3' }).convert.instances).toBe(3);
    expect(() => loadConfig({ API_INSTANCES: '0' })).toThrow(/API_INSTANCES/);
    expect(() => loadConfig({ API_INSTANCES: 'three' })).toThrow(/API_INSTANCES/);
  });

  it('serves the dev mailbox only when asked, never in production nor on a non-loopback address', () => {
    expect(loadConfig({}).devMailbox).toBe(false);
    expect(loadConfig({ DEV_MAILBOX: 'true' }).devMailbox).toBe(true);
    expect(() => loadConfig({ ...PRODUCTION, DEV_MAILBOX: 'true' })).toThrow(/DEV_MAILBOX must not be on/);
    expect(() => loadConfig({ DEV_MAILBOX: 'true', HOST: '0.0.0.0' })).toThrow(/DEV_MAILBOX needs a loopback HOST/);
    expect(loadConfig({ DEV_MAILBOX: 'true', HOST: '::1' }).devMailbox).toBe(true);
  });

  it('production without its real configuration refuses to start, naming each missing variable', () => {
    const issues = issuesOf({ NODE_ENV: 'production' });
    for (const key of [...PRODUCTION_REQUIRED, 'SIGNER_MNEMONIC_FILE'])
      expect(issues.some((i) => i.startsWith(`${key} must be set in production`))).toBe(true);
    expect(issues).toContain(
      'SESSION_SECURE_COOKIE must be always in production (session cookies Secure, __Host-sid only)',
    );
    expect(issues).toHaveLength(PRODUCTION_REQUIRED.length + 2);
    // One missing (or blank) variable is named alone.
    expect(issuesOf({ ...PRODUCTION, PRICE_FEED_URL: ' ' })).toEqual([
      'PRICE_FEED_URL must be set in production (no development stand-in is used there)',
    ]);
    // No signer process: no mnemonic needed.
    expect(loadConfig({ ...PRODUCTION, SIGNER_MNEMONIC_FILE: '', SIGNER_ENABLED: 'false' }).nodeEnv).toBe('production');
    // Development stand-ins switched on by hand are refused too.
    expect(issuesOf({ ...PRODUCTION, LOCAL_CHAINS: 'true', CONVERT_SEED_LIQUIDITY: 'true' })).toEqual([
      'LOCAL_CHAINS must not be on in production (local test chains)',
      'CONVERT_SEED_LIQUIDITY must not be on in production (it books liquidity no chain holds)',
    ]);
    // Development needs none of it.
    expect(loadConfig({}).nodeEnv).toBe('development');
  });

  it('treats empty strings as unset', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: ' ' })).toMatchObject({ port: 8080, databaseUrl: undefined });
  });

  it('names the bad variable and the value', () => {
    expect(issuesOf({ PORT: 'eighty' })).toEqual(['PORT must be an integer >= 1 and <= 65535 (got "eighty")']);
    expect(issuesOf({ PORT: '70000' })[0]).toMatch(/^PORT must be an integer/);
    expect(issuesOf({ LOG_LEVEL: 'loud' })[0]).toMatch(/^LOG_LEVEL must be one of fatal, error/);
    expect(issuesOf({ DATABASE_URL: 'mysql://x' })[0]).toMatch(/^DATABASE_URL must match/);
    expect(issuesOf({ TRUST_PROXY: 'yes' })[0]).toMatch(
      /^TRUST_PROXY must be true, false, 1, 0 or the proxies' addresses.*\(not yes\)$/,
    );
  });

  it('reports every bad variable at once', () => {
    const issues = issuesOf({ PORT: 'x', PG_PORT: '0', NODE_ENV: 'staging' });
    expect(issues.map((i) => i.split(' ')[0]).sort()).toEqual(['NODE_ENV', 'PG_PORT', 'PORT']);
    expect(() => loadConfig({ PORT: 'x' })).toThrow(/Invalid configuration:\n {2}- PORT/);
  });

  it('reads the 24-hour outflow review budget in whole USD (OUTFLOW_BUDGET_USD, default 10000) into the wallet options', () => {
    // Review item 8: the budget withdrawals, sends and sells share was fixed in code.
    expect(loadConfig({}).wallet.outflowBudgetUsd).toBe('10000');
    const config = loadConfig({ OUTFLOW_BUDGET_USD: '2500' });
    expect(walletOptionsFromConfig(config, false).outflowBudgetUsdCents).toBe(250_000n);
    expect(() => loadConfig({ OUTFLOW_BUDGET_USD: '12.5' })).toThrow();
  });

  it('reads the passkey sign-in budgets per IP and minute (WEBAUTHN_*_PER_IP_MINUTE, default 30 each)', () => {
    // Refused sign-in answers had no budget of their own: each writes an audit row for the credential's owner.
    expect(loadConfig({}).webauthn).toMatchObject({ optionsPerIpMinute: 30, answersPerIpMinute: 30 });
    expect(loadConfig({ WEBAUTHN_ANSWERS_PER_IP_MINUTE: '5' }).webauthn.answersPerIpMinute).toBe(5);
    for (const bad of ['0', '-1', '2.5', 'lots', '1000001'])
      expect(issuesOf({ WEBAUTHN_ANSWERS_PER_IP_MINUTE: bad })[0]).toMatch(
        /^WEBAUTHN_ANSWERS_PER_IP_MINUTE must be an integer/,
      );
  });

  it('reads how often the exchange engine looks at its orders (EXCHANGE_ENGINE_INTERVAL_MS, default 3000, 250 ms at least)', () => {
    // The e2e server looks every second (playwright.config.ts); a deployment keeps the engine's 3 s.
    expect(loadConfig({}).exchange.engineIntervalMs).toBe(3000);
    expect(loadConfig({ EXCHANGE_ENGINE_INTERVAL_MS: '1000' }).exchange.engineIntervalMs).toBe(1000);
    expect(issuesOf({ EXCHANGE_ENGINE_INTERVAL_MS: '10' })[0]).toMatch(
      /^EXCHANGE_ENGINE_INTERVAL_MS must be an integer/,
    );
  });
});
