import { maskEmail } from '../auth/rules.ts';

/**
 * Personal data as every /api/ops/users answer shows it (issue 32): enough to recognise ("al***@
 * example.com", "J***", "203.0.113.*"), never enough to contact or locate. The full value comes only
 * from the audited reveal (reveal.ts), one field at a time, to compliance.
 */
export { maskEmail };

/** A name or free text: its first character, then stars (null stays null). */
export function maskText(value: string | null): string | null {
  if (value === null) return null;
  const first = [...value.trim()][0];
  return first === undefined ? '***' : `${first}***`;
}

/** An IP address: IPv4 keeps its first three parts, IPv6 its first two groups. */
export function maskIp(ip: string | null): string | null {
  if (ip === null) return null;
  if (ip.includes(':')) return `${ip.split(':').slice(0, 2).join(':')}:*`;
  const parts = ip.split('.');
  return parts.length === 4 ? `${parts.slice(0, 3).join('.')}.*` : '***';
}

/** A payout method's shown fields (holder name, bank, last digits, phone…): every value masked. */
export function maskFields(shown: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(shown).map(([k, v]) => [k, maskText(v) ?? '***']));
}

/**
 * A lookup's key as the audit row keeps it (review s7, finding 2): the log is searched by admins, who
 * have no business with personal data. A user id in full (it names the target); an e-mail address
 * masked; anything else (user name, deposit address, tx hash) cut to its first and last 4 characters,
 * enough to match against a case, not to read off.
 */
export function maskLookupKey(key: string): string {
  if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(key)) return key;
  if (key.includes('@')) return maskEmail(key);
  return key.length <= 10 ? `${key.slice(0, 2)}***` : `${key.slice(0, 4)}…${key.slice(-4)}`;
}
