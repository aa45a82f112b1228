import { availableParallelism } from 'node:os';
import { type Algorithm, hash, verify } from '@node-rs/argon2';

/**
 * argon2id with the OWASP minimum (19 MiB, 2 passes, 1 lane). @node-rs/argon2 runs each
 * hash as a napi AsyncTask on the libuv thread pool, so the event loop stays free.
 */
export const argon2Options = {
  algorithm: 2 as Algorithm, // Algorithm.Argon2id (an ambient const enum, unusable with isolatedModules)
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
} as const;

/**
 * At most this many hashes run at once (default: cores - 1, at least 1), so that
 * hashing never takes every core from the event loop and PostgreSQL, and never
 * fills the libuv pool (4 threads by default) that fs and dns also use.
 */
export function defaultHashConcurrency(): number {
  const fromEnv = Number(process.env.ARGON2_CONCURRENCY);
  if (Number.isInteger(fromEnv) && fromEnv > 0) return fromEnv;
  return Math.max(1, availableParallelism() - 1);
}

/** A tiny FIFO semaphore. */
export function createLimiter(max: number) {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async function run<T>(task: () => Promise<T>): Promise<T> {
    if (active >= max) await new Promise<void>((resolve) => waiting.push(resolve));
    else active += 1;
    try {
      return await task();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else active -= 1;
    }
  };
}

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(passwordHash: string, password: string): Promise<boolean>;
  /** Verifies against a fixed dummy hash (always false) so unknown accounts cost the same time. */
  verifyDummy(password: string): Promise<false>;
}

export function createPasswordHasher(concurrency = defaultHashConcurrency()): PasswordHasher {
  const limit = createLimiter(concurrency);
  let dummy: Promise<string> | undefined;
  const verifyHash = (passwordHash: string, password: string) =>
    limit(() => verify(passwordHash, password, argon2Options)).catch(() => false);
  return {
    hash: (password) => limit(() => hash(password, argon2Options)),
    verify: verifyHash,
    async verifyDummy(password) {
      dummy ??= limit(() => hash('dummy-password-never-matches', argon2Options));
      await verifyHash(await dummy, password);
      return false;
    },
  };
}
