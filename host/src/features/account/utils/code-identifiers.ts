/**
 * Which identifiers signed in on this device needed the authenticator code (issue 31: a returning
 * device sends the code with the password, one request instead of two). Kept in localStorage as
 * hashes of the normalised identifier (no identifier, no secret): the login form shows the code
 * field under the password for them. A first-time device has none and sees the two-step flow.
 */
const STORAGE_KEY = 'login.codeIdentifiers';
/** The newest this many identifiers are kept (a shared device, several accounts). */
const MAX_IDENTIFIERS = 20;
/** Hex characters of the SHA-256 kept: 128 bits, plenty to tell a device's few identifiers apart. */
const HASH_HEX = 32;

/** As the server matches it (accounts-service login: trimmed, lower case). */
export function normaliseIdentifier(identifier: string): string {
  return identifier.trim().toLowerCase();
}

export async function identifierHash(identifier: string): Promise<string> {
  const bytes = new TextEncoder().encode(`cw-login-code:${normaliseIdentifier(identifier)}`);
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0'))
    .join('')
    .slice(0, HASH_HEX);
}

function stored(): string[] {
  try {
    const value: unknown = JSON.parse(globalThis.localStorage?.getItem(STORAGE_KEY) ?? '[]');
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}

function store(hashes: string[]): void {
  try {
    if (hashes.length === 0) globalThis.localStorage?.removeItem(STORAGE_KEY);
    else globalThis.localStorage?.setItem(STORAGE_KEY, JSON.stringify(hashes.slice(0, MAX_IDENTIFIERS)));
  } catch {
    // Storage full or blocked (private mode): the device just keeps the two-step flow.
  }
}

export async function needsCode(identifier: string): Promise<boolean> {
  if (normaliseIdentifier(identifier) === '') return false;
  return stored().includes(await identifierHash(identifier));
}

/** `needed`: a sign-in for `identifier` asked for the app's code (remember), or no longer does (forget). */
export async function rememberNeedsCode(identifier: string, needed: boolean): Promise<void> {
  if (normaliseIdentifier(identifier) === '') return;
  const hash = await identifierHash(identifier);
  const others = stored().filter((h) => h !== hash);
  store(needed ? [hash, ...others] : others);
}
