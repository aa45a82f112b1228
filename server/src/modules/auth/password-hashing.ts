import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { type Algorithm, hash, verify } from '@node-rs/argon2';
import { AppError } from '../../errors/app-error.ts';

/**
 * argon2id with the OWASP minimum (19 MiB, 2 passes, 1 lane). Never on the event loop: by default on
 * niced worker threads (see workerEngine); with ARGON2_ENGINE=napi, @node-rs/argon2's async API, which
 * runs each hash as a napi AsyncTask on the libuv thread pool.
 */
export const argon2Options = {
  algorithm: 2 as Algorithm, // Algorithm.Argon2id (an ambient const enum, unusable with isolatedModules)
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
} as const;

export type Argon2Params = Pick<typeof argon2Options, 'algorithm'> & {
  memoryCost: number;
  timeCost: number;
  parallelism: number;
};

/**
 * The cost of hashers created from now on in this process.
 *
 * - `production` (the default, all the server ever runs): `argon2Options`.
 * - `test`: argon2id at its smallest cost (8 KiB, one pass), set by the server tests' setup file
 *   (test/setup.ts). Sixty-odd test files register and sign in users, each hash 19 MiB and tens of ms of
 *   CPU on one hashing thread, while what they test is the flows around the password. The hash is the
 *   same algorithm and encoding, and a verification reads the cost from the stored hash, so every path
 *   runs as in production. `password-hashing.test.ts` checks the production parameters, and the
 *   dummy-hash timing test in login-sessions.api.test.ts runs at the production cost.
 */
export type HashCost = 'production' | 'test';

const testArgon2Options: Argon2Params = {
  algorithm: argon2Options.algorithm,
  memoryCost: 8,
  timeCost: 1,
  parallelism: 1,
};
let defaultCost: HashCost = 'production';

/** Tests only (test/setup.ts); production never calls it. */
export function setDefaultHashCost(cost: HashCost): void {
  defaultCost = cost;
}

function paramsFor(cost: HashCost): Argon2Params {
  if (cost === 'production') return argon2Options;
  // Only inside a test run (vitest sets VITEST in its workers): a server started any other way that
  // somehow asked for it refuses to hash rather than store weak hashes.
  if (!process.env.VITEST) throw new Error('the test password-hashing cost is for test runs only');
  return testArgon2Options;
}

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

/**
 * At most this many hashes wait for a thread (default `ARGON2_QUEUE_MAX` or 64); more are refused at
 * once. An unbounded queue turns a burst of guesses into minutes of latency for every sign-in.
 */
export function defaultHashQueueMax(): number {
  const fromEnv = Number(process.env.ARGON2_QUEUE_MAX);
  return Number.isInteger(fromEnv) && fromEnv > 0 ? fromEnv : 64;
}

/** The hashing queue is full: SERVICE_UNAVAILABLE (503) with Retry-After; nothing was verified. */
export class HasherBusyError extends AppError {
  constructor() {
    super('SERVICE_UNAVAILABLE', 'Too many password checks at once; retry shortly', {
      details: { retryAfterSeconds: 2 },
    });
    this.name = 'HasherBusyError';
  }
}

/** A tiny FIFO semaphore; past `maxWaiting` waiting tasks it refuses with HasherBusyError. */
export function createLimiter(max: number, maxWaiting = Number.POSITIVE_INFINITY) {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async function run<T>(task: () => Promise<T>): Promise<T> {
    if (active >= max) {
      if (waiting.length >= maxWaiting) throw new HasherBusyError();
      await new Promise<void>((resolve) => waiting.push(resolve));
    } else active += 1;
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
  /** Stops the worker threads, if any. */
  close(): Promise<void>;
}

type Job = { kind: 'hash'; password: string } | { kind: 'verify'; hash: string; password: string };

interface Engine {
  run(job: Job): Promise<string | boolean>;
  close(): Promise<void>;
}

/** argon2 on the libuv pool via napi AsyncTask, at most `concurrency` at once. */
function napiEngine(concurrency: number, queueMax: number, params: Argon2Params): Engine {
  const limit = createLimiter(concurrency, queueMax);
  return {
    run: (job) =>
      limit<string | boolean>(() =>
        job.kind === 'hash' ? hash(job.password, params) : verify(job.hash, job.password, params),
      ),
    close: async () => {},
  };
}

/**
 * argon2 on `size` worker threads running at a lower CPU priority (nice 10), so a burst of
 * sign-ins cannot starve the event loop: requests such as GET /api/me keep their latency.
 */
function workerEngine(size: number, nice: number, queueMax: number, params: Argon2Params): Engine {
  const workers = Array.from({ length: size }, () => {
    const worker = new Worker(new URL('./argon2-worker.mjs', import.meta.url), { workerData: { nice } });
    worker.unref();
    return worker;
  });
  const idle = [...workers];
  const queue: { job: Job; resolve: (v: string | boolean) => void; reject: (e: Error) => void }[] = [];
  const pending = new Map<
    number,
    { resolve: (v: string | boolean) => void; reject: (e: Error) => void; worker: Worker }
  >();
  let nextId = 0;

  const pump = () => {
    while (idle.length > 0 && queue.length > 0) {
      const worker = idle.pop() as Worker;
      const task = queue.shift() as (typeof queue)[number];
      const id = nextId++;
      pending.set(id, { resolve: task.resolve, reject: task.reject, worker });
      worker.postMessage({ id, ...task.job, options: params });
    }
  };
  for (const worker of workers) {
    worker.on('message', (message: { id: number; value?: string | boolean; error?: string }) => {
      const entry = pending.get(message.id);
      pending.delete(message.id);
      idle.push(worker);
      if (entry) {
        if (message.error !== undefined) entry.reject(new Error(message.error));
        else entry.resolve(message.value as string | boolean);
      }
      pump();
    });
    worker.on('error', (err) => {
      for (const [id, entry] of pending) {
        if (entry.worker === worker) {
          pending.delete(id);
          entry.reject(err);
        }
      }
    });
  }
  return {
    run: (job) =>
      new Promise((resolve, reject) => {
        if (idle.length === 0 && queue.length >= queueMax) return reject(new HasherBusyError());
        queue.push({ job, resolve, reject });
        pump();
      }),
    close: async () => {
      await Promise.all(workers.map((w) => w.terminate()));
    },
  };
}

export interface HasherOptions {
  /** Hashes at once; default `ARGON2_CONCURRENCY` or cores - 1 (min 1). */
  concurrency?: number;
  /** `workers` (default): niced worker threads; `napi`: the libuv thread pool. */
  engine?: 'workers' | 'napi';
  /** Hashes waiting for a thread at most; default `ARGON2_QUEUE_MAX` or 64. */
  queueMax?: number;
  /** The argon2 cost of new hashes; default the process's (`production` unless a test set it). */
  cost?: HashCost;
}

export function createPasswordHasher(options: HasherOptions | number = {}): PasswordHasher {
  const opts = typeof options === 'number' ? { concurrency: options } : options;
  const concurrency = opts.concurrency ?? defaultHashConcurrency();
  const kind = opts.engine ?? (process.env.ARGON2_ENGINE === 'napi' ? 'napi' : 'workers');
  const queueMax = opts.queueMax ?? defaultHashQueueMax();
  const params = paramsFor(opts.cost ?? defaultCost);
  let engine: Engine;
  try {
    engine =
      kind === 'workers' ? workerEngine(concurrency, 10, queueMax, params) : napiEngine(concurrency, queueMax, params);
  } catch {
    engine = napiEngine(concurrency, queueMax, params);
  }
  let dummy: Promise<string> | undefined;
  const verifyHash = async (passwordHash: string, password: string) => {
    try {
      return (await engine.run({ kind: 'verify', hash: passwordHash, password })) === true;
    } catch (err) {
      if (err instanceof HasherBusyError) throw err;
      return false;
    }
  };
  const hashPassword = async (password: string) => String(await engine.run({ kind: 'hash', password }));
  return {
    hash: hashPassword,
    verify: verifyHash,
    async verifyDummy(password) {
      // A busy queue must not leave a rejected dummy behind for good.
      dummy ??= hashPassword('dummy-password-never-matches').catch((err: unknown) => {
        dummy = undefined;
        throw err;
      });
      await verifyHash(await dummy, password);
      return false;
    },
    close: () => engine.close(),
  };
}
