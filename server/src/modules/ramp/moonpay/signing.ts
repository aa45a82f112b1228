import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * MoonPay's two signatures.
 *
 * Widget URLs: HMAC-SHA256 with the secret key over the URL's query string as sent (with its
 * leading `?`, values already URL-encoded), base64, appended last as `&signature=` (URL-encoded).
 *
 * Webhooks: header `Moonpay-Signature-V2: t=<unix seconds>,s=<hex>`, where s = HMAC-SHA256 with the
 * webhook key over `<t>.<raw body>`. We compare in constant time and refuse a timestamp outside
 * the tolerance, so a captured delivery cannot be replayed later.
 */

export function urlSignature(url: string, secretKey: string): string {
  return createHmac('sha256', secretKey).update(new URL(url).search).digest('base64');
}

export function signUrl(url: string, secretKey: string): string {
  return `${url}&signature=${encodeURIComponent(urlSignature(url, secretKey))}`;
}

/** True when `signedUrl` ends with the signature of everything before it. */
export function isUrlSignatureValid(signedUrl: string, secretKey: string): boolean {
  const at = signedUrl.lastIndexOf('&signature=');
  if (at < 0) return false;
  const given = decodeURIComponent(signedUrl.slice(at + '&signature='.length));
  return safeEqual(given, urlSignature(signedUrl.slice(0, at), secretKey));
}

export function webhookSignature(timestampS: number, rawBody: string, webhookKey: string): string {
  return createHmac('sha256', webhookKey).update(`${timestampS}.${rawBody}`).digest('hex');
}

export function webhookHeader(timestampS: number, rawBody: string, webhookKey: string): string {
  return `t=${timestampS},s=${webhookSignature(timestampS, rawBody, webhookKey)}`;
}

export type WebhookCheck = { ok: true; timestampS: number } | { ok: false; reason: 'malformed' | 'stale' | 'mismatch' };

/** Header length bound: t (<= 12 digits) and s (64 hex) with room for a second signature. */
const HEADER_CHARS_MAX = 512;

export function verifyWebhook(
  header: string | undefined,
  rawBody: string,
  webhookKey: string,
  nowMs: number,
  toleranceS: number,
): WebhookCheck {
  if (!header || header.length > HEADER_CHARS_MAX) return { ok: false, reason: 'malformed' };
  const parts = new Map<string, string[]>();
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq <= 0) return { ok: false, reason: 'malformed' };
    const key = part.slice(0, eq).trim();
    parts.set(key, [...(parts.get(key) ?? []), part.slice(eq + 1).trim()]);
  }
  const t = parts.get('t')?.[0];
  const signatures = parts.get('s') ?? [];
  if (!t || !/^\d{1,12}$/.test(t) || signatures.length === 0) return { ok: false, reason: 'malformed' };
  const timestampS = Number(t);
  if (Math.abs(nowMs / 1000 - timestampS) > toleranceS) return { ok: false, reason: 'stale' };
  const expected = webhookSignature(timestampS, rawBody, webhookKey);
  // A key rotation may send two `s=` values: any match is enough.
  return signatures.some((s) => safeEqual(s, expected)) ? { ok: true, timestampS } : { ok: false, reason: 'mismatch' };
}

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
