import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { assert } from '../ledger/model.ts';
import { fence, release, tryAcquire } from './lease.ts';

/**
 * Runs a background role on whichever instance holds its lease: every `ttlMs / 3` the instance tries
 * to take or renew the lease; when it becomes the leader it starts the role (with the fencing token),
 * when it loses the lease (or cannot reach the database for a whole lease) it stops it. A dead leader's
 * role resumes elsewhere within about `ttlMs + ttlMs / 3`.
 */
export interface LeaderOptions {
  db: Kysely<Database>;
  role: string;
  /** This instance's name (unique among instances: host, pid and a random part). */
  holder: string;
  ttlMs: number;
  /** Starts the role; returns its stop. */
  start: (token: bigint) => Promise<() => Promise<void>> | (() => Promise<void>);
  onError?: (error: unknown) => void;
}

export interface Leadership {
  /** The token while this instance leads, else null. */
  readonly token: bigint | null;
  /** Stops the role (if running) and releases the lease. */
  close(): Promise<void>;
}

export function runAsLeader(options: LeaderOptions): Leadership {
  const { db, role, holder, ttlMs } = options;
  assert(ttlMs >= 300, 'a lease of at least 300 ms (renewed every third)');
  let token: bigint | null = null;
  let stop: (() => Promise<void>) | null = null;
  let heldUntil = 0;
  let closed = false;
  let timer: NodeJS.Timeout | null = null;
  const period = Math.floor(ttlMs / 3);

  async function step(): Promise<void> {
    let next: bigint | null;
    // The lease runs from before the renewal was sent: never counted longer here than in the database.
    const sentAt = Date.now();
    try {
      next = await tryAcquire(db, role, holder, ttlMs);
      if (next !== null) heldUntil = sentAt + ttlMs;
    } catch (error) {
      options.onError?.(error);
      // Unreachable database: keep leading only while the lease we last got stays valid until the next
      // try, so the role has stopped here before another instance can take the lease.
      next = Date.now() + period < heldUntil ? token : null;
    }
    if (next !== null && next !== token) {
      if (stop) await stopRole();
      token = next;
      stop = await options.start(next);
    } else if (next === null && token !== null) {
      await stopRole();
    }
  }

  async function stopRole(): Promise<void> {
    const running = stop;
    stop = null;
    token = null;
    if (running) await running().catch((error: unknown) => options.onError?.(error));
  }

  const loop = async () => {
    if (closed) return;
    await step().catch((error: unknown) => options.onError?.(error));
    if (!closed) timer = setTimeout(loop, period);
  };
  void loop();

  return {
    get token() {
      return token;
    },
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      const held = token !== null;
      await stopRole();
      if (held) await release(db, role, holder).catch((error: unknown) => options.onError?.(error));
    },
  };
}

/** A lease's length for the server's roles: a dead leader's roles resume within about 4 s (issue 15: <= 5 s). */
export const ROLE_LEASE_MS = 3_000;

/** This process's name among instances (a lease's holder): host, pid and a random part. */
export function instanceName(): string {
  return `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
}

/** The fence of a role's writes: `fence(trx, role, token)` with the token of the running leadership. */
export function fenceOf(role: string, token: bigint): (trx: Transaction<Database>) => Promise<void> {
  return (trx) => fence(trx, role, token);
}
