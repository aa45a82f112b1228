import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { type Quote, requestQuote } from '../api/convert-api.ts';
import type { ConvertCoin } from '../lib/coins.ts';

/** A quote with the local time it expires (server TTL counted from when it arrived: no clock skew). */
export interface HeldQuote extends Quote {
  expiresAtMs: number;
}

export function holdQuote(quote: Quote): HeldQuote {
  const ttlMs = Date.parse(quote.expiresAt) - Date.parse(quote.createdAt);
  return { ...quote, expiresAtMs: Date.now() + Math.max(0, ttlMs) };
}

/** `value`, once it has stopped changing for `delayMs`. */
export function useDebounced<T>(value: T, delayMs: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return settled;
}

/**
 * The quote for (from, to, amount), asked once per input (typing is debounced). It is not
 * refreshed by itself when it expires: the user sees the countdown end, and accepting an expired
 * quote brings the "rate expired and updated" dialog with the new one.
 */
export function useQuote(from: ConvertCoin, to: ConvertCoin, amountMinor: bigint | null, enabled: boolean) {
  const amount = useDebounced(amountMinor, 400);
  return useQuery({
    queryKey: ['convert', 'quote', from, to, amount?.toString() ?? ''],
    queryFn: async () => holdQuote(await requestQuote(from, to, amount ?? 0n)),
    enabled: enabled && amount !== null && amount > 0n && from !== to,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
    retry: false,
    refetchOnWindowFocus: false,
  });
}
