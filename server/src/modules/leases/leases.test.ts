import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createDb } from '../../db/create-db.ts';
import { useTestDatabase } from '../../test/database.ts';
import { runAsLeader } from './leader.ts';
import { fence, LeaseLostError, release, tryAcquire } from './lease.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('leases (leader election with fencing tokens)', () => {
  const database = useTestDatabase();

  it('one holder at a time; a release hands the role over with a higher token', async () => {
    const db = database.db;
    const a = await tryAcquire(db, 'r1', 'A', 5000);
    expect(a).toBe(1n);
    expect(await tryAcquire(db, 'r1', 'B', 5000)).toBeNull();
    expect(await tryAcquire(db, 'r1', 'A', 5000)).toBe(1n); // a renewal keeps the token
    await release(db, 'r1', 'A');
    expect(await tryAcquire(db, 'r1', 'B', 5000)).toBe(2n);
    expect(await tryAcquire(db, 'r1', 'A', 5000)).toBeNull();
  });

  it('an expired lease is taken over; the old holder learns it lost and its writes are refused', async () => {
    const db = database.db;
    const old = await tryAcquire(db, 'r2', 'A', 300);
    expect(old).not.toBeNull();
    await sleep(350);
    const next = await tryAcquire(db, 'r2', 'B', 5000);
    expect(next).toBe((old as bigint) + 1n);
    expect(await tryAcquire(db, 'r2', 'A', 300)).toBeNull();
    await expect(db.transaction().execute((trx) => fence(trx, 'r2', old as bigint))).rejects.toBeInstanceOf(
      LeaseLostError,
    );
    await expect(db.transaction().execute((trx) => fence(trx, 'r2', next as bigint))).resolves.toBeUndefined();
  });

  it("a takeover waits for the old leader's write in flight, which therefore lands first", async () => {
    const db = database.db;
    await sql`create table if not exists lease_probe (n integer)`.execute(db);
    const old = (await tryAcquire(db, 'r3', 'A', 400)) as bigint;
    let takenAt = 0;
    let wroteAt = 0;
    const write = db.transaction().execute(async (trx) => {
      await fence(trx, 'r3', old);
      await sleep(700); // paused past its lease while holding the fence
      await sql`insert into lease_probe values (1)`.execute(trx);
      wroteAt = Date.now();
    });
    await sleep(500);
    const takeover = tryAcquire(db, 'r3', 'B', 5000).then((token) => {
      takenAt = Date.now();
      return token;
    });
    expect(await takeover).toBe(old + 1n);
    await write;
    expect(takenAt).toBeGreaterThanOrEqual(wroteAt);
  });

  it('runAsLeader: one instance runs the role; cut off from the database it stops, another resumes it', async () => {
    const db = database.db;
    const poolOfA = createDb(database.url, { max: 2 });
    const running: string[] = [];
    const instance = (name: string, handle: typeof db) =>
      runAsLeader({
        db: handle,
        role: 'r4',
        holder: name,
        ttlMs: 600,
        start: () => {
          running.push(name);
          return async () => {
            running.splice(running.indexOf(name), 1);
          };
        },
        onError: () => undefined,
      });
    const a = instance('A', poolOfA);
    await sleep(150);
    const b = instance('B', db);
    await sleep(500);
    expect(running).toEqual(['A']);
    expect(a.token).not.toBeNull();
    expect(b.token).toBeNull();
    // A loses the database (its connections end): it can renew no more.
    const tokenOfA = a.token as bigint;
    const cutAt = Date.now();
    await poolOfA.destroy();
    while (!running.includes('B') && Date.now() - cutAt < 5000) await sleep(10);
    const takeoverMs = Date.now() - cutAt;
    expect(running).toContain('B');
    // About a lease (600 ms) plus one renewal period (200 ms); the slack is for a loaded machine.
    expect(takeoverMs).toBeLessThan(2500);
    // A stops by itself (it can no longer prove its lease), and whatever it still tried to write would
    // be refused: its token is stale. (Overlap is not excluded by timers; the fence excludes its effects.)
    while (running.includes('A') && Date.now() - cutAt < 5000) await sleep(10);
    expect(running).toEqual(['B']);
    await expect(db.transaction().execute((trx) => fence(trx, 'r4', tokenOfA))).rejects.toBeInstanceOf(LeaseLostError);
    await b.close();
    await a.close();
    expect(running).toEqual([]);
  });
});
