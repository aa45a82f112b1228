/**
 * Where passkeys are valid (WEBAUTHN_RP_ID, WEBAUTHN_ORIGINS). A passkey is bound to its RP ID (a
 * domain, never an IP address: browsers refuse those), and every answer names the page origin it was
 * made on; both are checked against this. With no origins configured only http(s)://<rpId>[:port]
 * pages are accepted, which is what local runs (`npm start`, the e2e server, nginx on a loopback
 * port) use when opened as http://localhost:<port>.
 */
export interface WebAuthnOptions {
  /** The relying party id: the site's domain (default `localhost`). */
  rpId: string;
  /** Shown by the authenticator next to the account. */
  rpName: string;
  /** Exact origins accepted; empty: any port of `rpId` itself. */
  origins: readonly string[];
  /** Password-less sign-in options per IP and minute (WEBAUTHN_OPTIONS_PER_IP_MINUTE, default 30). */
  optionsPerIpMinute: number;
  /** Refused password-less sign-in answers per IP and minute (WEBAUTHN_ANSWERS_PER_IP_MINUTE, default 30). */
  answersPerIpMinute: number;
}

export const defaultWebAuthnOptions: WebAuthnOptions = {
  rpId: 'localhost',
  rpName: 'CW Wallet',
  origins: [],
  optionsPerIpMinute: 30,
  answersPerIpMinute: 30,
};

/** Whether an answer made on page `origin` is for us. */
export function originAllowed(options: WebAuthnOptions, origin: string): boolean {
  if (options.origins.length > 0) return options.origins.includes(origin);
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  return (
    (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname === options.rpId && url.origin === origin
  );
}

/** WEBAUTHN_ORIGINS as typed: comma-separated, blanks dropped. */
export function parseOrigins(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((o) => o.trim())
    .filter((o) => o !== '');
}
