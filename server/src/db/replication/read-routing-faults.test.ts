import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EmbeddedPostgres, startEmbeddedPostgres } from '../embedded-postgres.ts';
import { createReadRouting, type ReadReason, type ReadRouting, type ReadSide } from './read-routing.ts';

/**
 * Review s8 finding 3: a hung or failing replica costs the reader neither a 500 nor long waits, and the
 * write's read-your-writes mark never waits behind the reads' fallback pool. One PostgreSQL (no standby):
 * the "replica" is a black hole, a proxy that stops forwarding, or the same server (target any).
 */
interface Proxy {
  port: number;
  freeze(): void;
  close(): Promise<void>;
}

/** Forwards to `upstreamPort` until frozen, then drops every byte both ways (a partition without RST). */
async function startProxy(upstreamPort: number | undefined): Promise<Proxy> {
  let frozen = false;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    sockets.add(client);
    client.on('error', () => undefined);
    if (upstreamPort === undefined) return; // a black hole: accepts, never answers
    const upstream = net.connect(upstreamPort, '127.0.0.1');
    sockets.add(upstream);
    upstream.on('error', () => undefined);
    client.on('data', (d) => (frozen ? undefined : upstream.write(d)));
    upstream.on('data', (d) => (frozen ? undefined : client.write(d)));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as net.AddressInfo).port,
    freeze: () => {
      frozen = true;
    },
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((r) => server.close(r));
    },
  };
}

describe('read routing when the replica hangs or fails (review s8 finding 3)', () => {
  let dir: string;
  let primary: EmbeddedPostgres;
  const routed: { side: ReadSide; reason: ReadReason }[] = [];
  const open: ReadRouting[] = [];
  const proxies: Proxy[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'cw-read-faults-'));
    primary = await startEmbeddedPostgres({ dir, ephemeral: true });
    await primary.ensureDatabase('wallet');
  }, 120_000);

  afterAll(async () => {
    for (const r of open) await r.destroy().catch(() => undefined);
    for (const p of proxies) await p.close();
    await primary?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  function routing(readUrl: string, extra: Record<string, unknown> = {}): ReadRouting {
    const reads = createReadRouting({
      primaryUrl: primary.url('wallet'),
      readUrl,
      max: 2,
      onRouted: (side, reason) => routed.push({ side, reason }),
      probeTimeoutMs: 300,
      connectTimeoutMs: 300,
      statementTimeoutMs: 500,
      ...extra,
    } as Parameters<typeof createReadRouting>[0]);
    open.push(reads);
    return reads;
  }
  const one = (reads: ReadRouting, text = 'select 1 as one') =>
    reads.run(null, () => sql.raw<{ one: number }>(text).execute(reads.db));
  const within = <T>(ms: number, p: Promise<T>) =>
    Promise.race([p, new Promise<never>((_, no) => setTimeout(() => no(new Error(`no answer in ${ms} ms`)), ms))]);
  const withPort = (port: number) => {
    const url = new URL(primary.url('wallet'));
    url.hostname = '127.0.0.1';
    url.port = String(port);
    return url.toString();
  };

  it('a black-hole replica: reads answer from the primary, and the failed probe is not repeated per read', {
    timeout: 20_000,
  }, async () => {
    const hole = await startProxy(undefined);
    proxies.push(hole);
    const reads = routing(`${withPort(hole.port)}?target_session_attrs=any`);
    routed.length = 0;
    const started = Date.now();
    for (let i = 0; i < 5; i += 1) expect((await within(5_000, one(reads))).rows[0]?.one).toBe(1);
    // One probe (300 ms), then the back-off: five reads well under five probes.
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(routed.every((r) => r.side === 'primary' && r.reason === 'replica-unavailable')).toBe(true);
  });

  it('a replica that stops answering mid-connection: the read times out there and the primary answers', {
    timeout: 20_000,
  }, async () => {
    const proxy = await startProxy(Number(new URL(primary.url('wallet')).port));
    // (the embedded server listens on 127.0.0.1)
    proxies.push(proxy);
    const reads = routing(`${withPort(proxy.port)}?target_session_attrs=any`);
    routed.length = 0;
    expect((await within(5_000, one(reads))).rows[0]?.one).toBe(1);
    expect(routed.at(-1)).toEqual({ side: 'replica', reason: 'replica' });
    proxy.freeze();
    routed.length = 0;
    const started = Date.now();
    expect((await within(5_000, one(reads))).rows[0]?.one).toBe(1);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(routed.at(-1)?.side).toBe('primary');
  });

  it('a replica query cancelled (recovery conflict, restart) is retried once on the primary, not a 500', {
    timeout: 20_000,
  }, async () => {
    const reads = routing(`${primary.url('wallet')}?target_session_attrs=any`, { statementTimeoutMs: 5_000 });
    routed.length = 0;
    const read = one(reads, 'select 1 as one, pg_sleep(0.6) as slept_cancel_me');
    await new Promise((r) => setTimeout(r, 250));
    const admin = new pg.Client({ connectionString: primary.url('wallet') });
    await admin.connect();
    await admin.query(
      `select pg_cancel_backend(pid) from pg_stat_activity
        where query like '%slept_cancel_me%' and pid <> pg_backend_pid()`,
    );
    await admin.end();
    expect((await within(5_000, read)).rows[0]?.one).toBe(1);
    expect(routed).toEqual([
      { side: 'replica', reason: 'replica' },
      { side: 'primary', reason: 'replica-failed' },
    ]);
  });

  it("the write's mark (primaryLsn) does not wait behind a saturated fallback pool", { timeout: 20_000 }, async () => {
    const reads = routing(`${primary.url('wallet')}?target_session_attrs=any`, { max: 1, statementTimeoutMs: 5_000 });
    // Outside a replica route the routed Kysely is the fallback primary pool: hold its only connection.
    const busy = sql`select pg_sleep(2)`.execute(reads.db);
    await new Promise((r) => setTimeout(r, 200));
    const started = Date.now();
    expect(await reads.primaryLsn()).toMatch(/^[0-9A-F]+\/[0-9A-F]+$/);
    expect(Date.now() - started).toBeLessThan(1_000);
    await busy;
  });
});
