import type { Quote } from '../api/convert-api.ts';

/** A quote with the local time it expires (server TTL counted from when it arrived: no clock skew). */
export interface HeldQuote extends Quote {
  expiresAtMs: number;
}

export function holdQuote(quote: Quote): HeldQuote {
  const ttlMs = Date.parse(quote.expiresAt) - Date.parse(quote.createdAt);
  return { ...quote, expiresAtMs: Date.now() + Math.max(0, ttlMs) };
}
