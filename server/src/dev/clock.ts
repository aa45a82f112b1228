import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

/**
 * DEV_CLOCK: the server's time moved forward by an offset kept in PostgreSQL (one row), so QA can
 * test tomorrow today, and every instance agrees within `refreshMs`. `now()` never goes backwards:
 * the offset only grows. Off in production (config-checks refuses DEV_CLOCK there).
 */
export interface DevClock {
  now(): Date;
  offsetMs(): number;
  /** Moves the clock forward; returns the new offset. */
  advance(ms: number): Promise<number>;
  stop(): void;
}

/** Largest single step: a year (a typo of 10^12 ms must not wreck a database's dates). */
const STEP_MAX_MS = 366 * 86_400_000;

export async function startDevClock(db: Kysely<Database>, refreshMs = 500): Promise<DevClock> {
  let offset = 0;
  const read = async () => {
    const row = await db.selectFrom('dev_clock').select('offset_ms').where('id', '=', 1).executeTakeFirst();
    offset = Math.max(offset, Number(row?.offset_ms ?? 0));
  };
  await read();
  const timer = setInterval(() => void read().catch(() => {}), refreshMs);
  timer.unref();
  return {
    now: () => new Date(Date.now() + offset),
    offsetMs: () => offset,
    async advance(ms) {
      if (!Number.isInteger(ms) || ms <= 0 || ms > STEP_MAX_MS) throw new RangeError('advance 1 ms .. 366 days');
      const row = await db
        .insertInto('dev_clock')
        .values({ id: 1, offset_ms: String(ms) })
        .onConflict((oc) =>
          oc.column('id').doUpdateSet((eb) => ({ offset_ms: eb('dev_clock.offset_ms', '+', eb.val(String(ms))) })),
        )
        .returning('offset_ms')
        .executeTakeFirstOrThrow();
      offset = Math.max(offset, Number(row.offset_ms));
      return offset;
    },
    stop: () => clearInterval(timer),
  };
}

/** Moves a local anvil chain's time forward by `seconds` and mines a block at the new time. */
export async function advanceAnvil(rpcUrl: string, seconds: number): Promise<void> {
  for (const [method, params] of [
    ['evm_increaseTime', [seconds]],
    ['evm_mine', []],
  ] as const) {
    const response = await fetch(rpcUrl, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    });
    const body = (await response.json()) as { error?: unknown };
    if (body.error) throw new Error(`${method} failed: ${JSON.stringify(body.error)}`);
  }
}
