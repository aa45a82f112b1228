import { parse } from 'lossless-json';

/**
 * JSON over HTTP for the chain APIs (TronGrid, Esplora). Numbers are kept as decimal STRINGS
 * (lossless-json): satoshi and token amounts can exceed 2^53, and a float would corrupt them.
 */
export type Json = string | boolean | null | Json[] | { [key: string]: Json };

const TIMEOUT_MS = 10_000;
/** Larger answers are refused rather than buffered (a limit on every input). */
const MAX_BODY_BYTES = 8 * 1024 * 1024;

/** A non-2xx answer; `status` 404 is how an indexer says "no such block", anything else is a fault. */
export class HttpStatusError extends Error {
  readonly status: number;

  constructor(url: string, status: number, text: string) {
    super(`${url}: HTTP ${status} ${text.slice(0, 200)}`);
    this.status = status;
  }
}

export async function fetchText(url: string, init: RequestInit = {}): Promise<string> {
  const res = await fetch(url, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS) });
  const text = await res.text();
  if (text.length > MAX_BODY_BYTES) throw new Error(`${url}: answer too large`);
  if (!res.ok) throw new HttpStatusError(url, res.status, text);
  return text;
}

export async function fetchJson(url: string, init: RequestInit = {}): Promise<Json> {
  return parse(await fetchText(url, init), null, (value) => value) as Json;
}

export function postJson(url: string, body: unknown): Promise<Json> {
  return fetchJson(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

/** Reads a field path of an answer, or undefined when the shape differs. */
export function at(value: Json | undefined, ...path: (string | number)[]): Json | undefined {
  let current: Json | undefined = value;
  for (const key of path) {
    if (current === null || current === undefined || typeof current !== 'object') return undefined;
    current = Array.isArray(current) ? current[key as number] : (current as Record<string, Json>)[key as string];
  }
  return current;
}

export const asString = (v: Json | undefined): string | undefined => (typeof v === 'string' ? v : undefined);
export const asArray = (v: Json | undefined): Json[] => (Array.isArray(v) ? v : []);

/** A non-negative integer given as a JSON number (kept as text) or string. */
export function asBigInt(v: Json | undefined): bigint | undefined {
  return typeof v === 'string' && /^\d{1,78}$/.test(v) ? BigInt(v) : undefined;
}
