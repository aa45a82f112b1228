/**
 * Start-up checks of the configuration that are about safety rather than form (config.ts validates
 * the form): the dev mailbox stays on loopback, and production never runs on development stand-ins.
 */

/** The validated settings these checks read (config.ts's Env has them all). */
export interface CheckedSettings {
  NODE_ENV: string;
  HOST: string;
  DEV_MAILBOX?: boolean | undefined;
  DEV_CLOCK?: boolean | undefined;
  LOCAL_CHAINS?: boolean | undefined;
  CONVERT_SEED_LIQUIDITY?: boolean | undefined;
  SIGNER_ENABLED: boolean;
  SIGNER_MNEMONIC_FILE?: string | undefined;
  /** Absent (tests of other checks): as `auto`. */
  SESSION_SECURE_COOKIE?: string | undefined;
}

/** 127.0.0.0/8, ::1 and localhost: reachable from this machine only. */
export function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/**
 * What production must be given: without each of these the server would quietly run on a development
 * stand-in (the embedded database, the sandbox price feed, a freshly generated mnemonic, the dev
 * mailbox instead of e-mail). `XPUB_*` and `HOT_WALLET_*` are read by modules/chain/keys.ts,
 * `PAYOUT_DATA_KEY` (the key sealing payout numbers) by modules/payment-methods/sealing.ts.
 */
export const PRODUCTION_REQUIRED = [
  'DATABASE_URL',
  'SMTP_URL',
  'PRICE_FEED_URL',
  'XPUB_ETHEREUM',
  'XPUB_BSC',
  'XPUB_TRON',
  'XPUB_BITCOIN',
  'XPUB_DOGECOIN',
  'HOT_WALLET_ETHEREUM',
  'HOT_WALLET_BSC',
  'PAYOUT_DATA_KEY',
] as const;

/** Production refuses to start on development stand-ins; each missing or unsafe variable is named. */
function productionIssues(e: CheckedSettings, env: NodeJS.ProcessEnv): string[] {
  const issues = PRODUCTION_REQUIRED.filter((key) => !env[key]?.trim()).map(
    (key) => `${key} must be set in production (no development stand-in is used there)`,
  );
  if (e.SIGNER_ENABLED && !e.SIGNER_MNEMONIC_FILE)
    issues.push('SIGNER_MNEMONIC_FILE must be set in production (or SIGNER_ENABLED=false): no generated key is used');
  // `auto` trusts the request's protocol: behind a proxy that is not trusted, or on a plain hop, the
  // session cookie would go out without Secure and a plain `sid` would be read.
  if (e.SESSION_SECURE_COOKIE !== 'always')
    issues.push('SESSION_SECURE_COOKIE must be always in production (session cookies Secure, __Host-sid only)');
  if (e.DEV_MAILBOX === true)
    issues.push("DEV_MAILBOX must not be on in production (it shows every user's verification codes)");
  if (e.DEV_CLOCK === true) issues.push('DEV_CLOCK must not be on in production (it moves the server clock)');
  if (e.LOCAL_CHAINS === true) issues.push('LOCAL_CHAINS must not be on in production (local test chains)');
  if (e.CONVERT_SEED_LIQUIDITY === true)
    issues.push('CONVERT_SEED_LIQUIDITY must not be on in production (it books liquidity no chain holds)');
  return issues;
}

/**
 * Settings that would expose accounts or run production on stand-ins, each naming its variable
 * (config.ts refuses to start with any).
 */
export function unsafeSettings(e: CheckedSettings, env: NodeJS.ProcessEnv): string[] {
  const issues = e.NODE_ENV === 'production' ? productionIssues(e, env) : [];
  if (e.DEV_MAILBOX === true && !isLoopbackHost(e.HOST))
    issues.push(`DEV_MAILBOX needs a loopback HOST (got ${JSON.stringify(e.HOST)}): it shows every user's codes`);
  if (e.DEV_CLOCK === true && !isLoopbackHost(e.HOST))
    issues.push(`DEV_CLOCK needs a loopback HOST (got ${JSON.stringify(e.HOST)}): it moves the server clock`);
  return issues;
}
