import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Kysely } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type App, buildApp } from '../../app.ts';
import { createClock, type Harness, nextIp, registerUser } from '../../modules/auth/test-helpers.ts';
import { type SmtpSink, startSmtpSink } from '../../modules/mail/smtp-sink.ts';
import { testUsdPrices } from '../../modules/prices/test-prices.ts';
import { fund, key, TEST_CHAINS, TEST_HOT_WALLET, transferCode } from '../../modules/withdrawals/test-helpers.ts';
import { testConsoleSurface } from '../../test/app.ts';
import { archiveLayout, archiveSettings, prepareArchive } from '../backup/wal-archive.ts';
import { createDb } from '../create-db.ts';
import { type EmbeddedPostgres, startEmbeddedPostgres } from '../embedded-postgres.ts';
import { migrateToLatest } from '../migrate.ts';
import type { Database } from '../schema.ts';
import { createReadRouting, type ReadReason, type ReadRouting, type ReadSide } from './read-routing.ts';
import { startStandby } from './standby.ts';

/**
 * Issue 34, read traffic on the replica, against a real streaming standby whose replay we pause:
 * the writer reads their own transfer at once (primary), another user's history read is served by
 * the lagging replica (so it does not show the transfer yet), and a balance read never goes there.
 */
async function one<T>(url: string, text: string): Promise<T | undefined> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text)).rows[0] as T | undefined;
  } finally {
    await client.end();
  }
}

function markCookie(res: { headers: Record<string, unknown> }): string | undefined {
  const header = res.headers['set-cookie'];
  for (const c of Array.isArray(header) ? header : [header])
    if (typeof c === 'string' && c.startsWith('cw_rlsn=')) return c.split(';')[0];
  return undefined;
}

describe('reads on the replica (DATABASE_READ_URL) with read-your-writes', () => {
  let dir: string;
  let primary: EmbeddedPostgres;
  let standby: EmbeddedPostgres | undefined;
  let db: Kysely<Database>;
  let reads: ReadRouting;
  let app: App;
  let sink: SmtpSink;
  const routed: { side: ReadSide; reason: ReadReason }[] = [];
  const clock = createClock();

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'cw-replica-reads-'));
    const layout = archiveLayout(dir);
    await prepareArchive(layout);
    primary = await startEmbeddedPostgres({ dir, ephemeral: true, settings: archiveSettings(layout) });
    await primary.ensureDatabase('wallet');
    db = createDb(primary.url('wallet'), { max: 6 });
    await migrateToLatest(db);
    standby = await startStandby({
      primaryAdminUrl: primary.url(),
      primaryDataDir: primary.dataDir,
      passwordFile: path.join(dir, 'pg-password'),
      layout,
      into: path.join(dir, 'standby'),
      ephemeral: true,
    });
    reads = createReadRouting({
      primaryUrl: primary.url('wallet'),
      readUrl: `${standby.url('wallet')}?target_session_attrs=prefer-standby`,
      onRouted: (side, reason) => routed.push({ side, reason }),
      // This test pauses replay on purpose to see the replica's stale page: no lag ceiling here (see below).
      maxLagMs: 600_000,
    });
    sink = await startSmtpSink();
    app = buildApp({
      db,
      reads,
      now: clock.now,
      rateLimit: { max: 100_000, windowMs: 60_000 },
      console: testConsoleSurface,
      auth: { codeLimits: { resendAfterSeconds: 0, perAddressPerHour: 10_000, perIpPerHour: 10_000 } },
      wallet: { chains: () => TEST_CHAINS, prices: testUsdPrices },
      hotWallets: { ethereum: TEST_HOT_WALLET, bsc: TEST_HOT_WALLET },
      mail: { smtpUrl: sink.url, pollIntervalMs: 50 },
    });
    await app.ready();
  }, 180_000);

  afterAll(async () => {
    await app?.close();
    await sink?.close();
    await reads?.destroy();
    await db?.destroy();
    await standby?.stop();
    await primary?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  async function replicaCaughtUp(withinMs = 10_000): Promise<void> {
    const target = await one<{ lsn: string }>(primary.url(), 'select pg_current_wal_insert_lsn()::text as lsn');
    for (let i = 0; i < withinMs / 50; i += 1) {
      const row = await one<{ ok: boolean }>(
        standby?.url() ?? '',
        `select pg_last_wal_replay_lsn() >= '${target?.lsn}'::pg_lsn as ok`,
      );
      if (row?.ok) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error('the standby did not catch up');
  }

  const get = (cookie: string, url: string) =>
    app.inject({ method: 'GET', url, remoteAddress: nextIp(), headers: { cookie } });
  const sendsIn = (res: { json(): unknown }) =>
    (res.json() as { items: { type: string }[] }).items.filter((i) => i.type === 'send').length;

  it('a replica whose replay lags past the ceiling is not used; an idle primary does not look lagged (review s8 finding 4)', {
    timeout: 30_000,
  }, async () => {
    const lagged: { side: ReadSide; reason: ReadReason }[] = [];
    const strict = createReadRouting({
      primaryUrl: primary.url('wallet'),
      readUrl: `${standby?.url('wallet')}?target_session_attrs=prefer-standby`,
      maxLagMs: 300,
      onRouted: (side, reason) => lagged.push({ side, reason }),
    });
    const read = () => strict.run(null, () => strict.db.selectFrom('users').select('id').limit(1).execute());
    try {
      await one(primary.url('wallet'), 'create table if not exists lag_probe (n int)');
      await replicaCaughtUp();
      // Idle: nothing new since the last replayed commit, however long ago: the replica is current.
      await new Promise((r) => setTimeout(r, 600));
      await read();
      expect(lagged).toEqual([{ side: 'replica', reason: 'replica' }]);
      // Replay paused, a commit arrives and waits unreplayed past the ceiling: the primary answers.
      await one(standby?.url() ?? '', 'select pg_wal_replay_pause()');
      await one(primary.url('wallet'), 'insert into lag_probe values (1)');
      await new Promise((r) => setTimeout(r, 600));
      lagged.length = 0;
      await read();
      expect(lagged).toEqual([{ side: 'primary', reason: 'replica-lagged' }]);
      await one(standby?.url() ?? '', 'select pg_wal_replay_resume()');
      await replicaCaughtUp();
      lagged.length = 0;
      await read();
      expect(lagged).toEqual([{ side: 'replica', reason: 'replica' }]);
    } finally {
      await one(standby?.url() ?? '', 'select pg_wal_replay_resume()').catch(() => undefined);
      await strict.destroy();
    }
  });

  it('a standby whose stream was cut (receive = replay, hours behind) is not used past the ceiling (review s8b I)', {
    timeout: 30_000,
  }, async () => {
    const seen: { side: ReadSide; reason: ReadReason }[] = [];
    const strict = createReadRouting({
      primaryUrl: primary.url('wallet'),
      readUrl: `${standby?.url('wallet')}?target_session_attrs=prefer-standby`,
      maxLagMs: 300,
      primarySampleIntervalMs: 100,
      onRouted: (side, reason) => seen.push({ side, reason }),
    });
    const read = () => strict.run(null, () => strict.db.selectFrom('users').select('id').limit(1).execute());
    const hba = path.join(primary.dataDir, 'pg_hba.conf');
    const original = await readFile(hba, 'utf8');
    try {
      await one(primary.url('wallet'), 'create table if not exists cut_probe (n int)');
      await replicaCaughtUp();
      // Cut the link: the primary refuses replication and ends the walsender; the standby keeps running
      // with receive = replay, which the old check took for "current".
      await writeFile(hba, `host replication all all reject\nlocal replication all reject\n${original}`);
      await one(primary.url(), 'select pg_reload_conf()');
      await one(primary.url(), `select pg_terminate_backend(pid) from pg_stat_replication`);
      await one(primary.url('wallet'), 'insert into cut_probe values (1)');
      await new Promise((r) => setTimeout(r, 800));
      const unseen = await one<{ n: number }>(standby?.url('wallet') ?? '', 'select count(*)::int as n from cut_probe');
      expect(unseen?.n).toBe(0);
      seen.length = 0;
      await read();
      expect(seen).toEqual([{ side: 'primary', reason: 'replica-lagged' }]);
    } finally {
      await writeFile(hba, original);
      await one(primary.url(), 'select pg_reload_conf()');
    }
    try {
      await replicaCaughtUp(30_000);
      seen.length = 0;
      await read();
      expect(seen).toEqual([{ side: 'replica', reason: 'replica' }]);
    } finally {
      await strict.destroy();
    }
  });

  it('the writer sees their transfer at once, another user reads the lagging replica, money reads never do', {
    timeout: 60_000,
  }, async () => {
    const h: Harness = { app, db, databaseUrl: primary.url('wallet'), sink, clock };
    const [a, b] = [await registerUser(h), await registerUser(h)];
    await fund(h, a.user.id, 'USDT', 10_000_000n);
    await replicaCaughtUp();
    await one(standby?.url() ?? '', 'select pg_wal_replay_pause()');

    const sent = await app.inject({
      method: 'POST',
      url: '/api/wallet/sends',
      remoteAddress: nextIp(),
      headers: { cookie: a.cookie },
      payload: {
        coin: 'USDT',
        amountMinor: '1500000',
        recipientKind: 'email',
        recipient: b.email,
        idempotencyKey: key(),
        emailCode: await transferCode(h, a),
      },
    });
    expect(sent.statusCode, sent.body).toBe(201);
    const mark = markCookie(sent);
    expect(mark).toMatch(/^cw_rlsn=[0-9A-F]+\/[0-9A-F]+$/);

    // The writer, carrying the mark: the paused replica is behind it, so the primary answers.
    routed.length = 0;
    const mine = await get(`${a.cookie}; ${mark}`, '/api/wallet/history');
    expect(mine.statusCode).toBe(200);
    expect(sendsIn(mine)).toBe(1);
    expect(routed).toEqual([{ side: 'primary', reason: 'replica-behind' }]);

    // Another user (no mark): the replica answers, and it has not replayed the transfer yet.
    routed.length = 0;
    const theirs = await get(b.cookie, '/api/wallet/history');
    expect(theirs.statusCode).toBe(200);
    expect(sendsIn(theirs)).toBe(0);
    expect(routed).toEqual([{ side: 'replica', reason: 'replica' }]);
    // Announcements and proof of liabilities read the replica too.
    routed.length = 0;
    expect((await get(b.cookie, '/api/notices/announcements')).statusCode).toBe(200);
    expect((await get(b.cookie, '/api/por')).statusCode).toBe(200);
    expect(routed.every((r) => r.side === 'replica') && routed.length >= 2).toBe(true);

    // A money read never goes to the replica: B's balance already has the transfer.
    routed.length = 0;
    const balances = (await get(b.cookie, '/api/me/balances')).json() as { asset: string; availableMinor: string }[];
    expect(balances.find((x) => x.asset === 'USDT')?.availableMinor).toBe('1500000');
    expect(routed).toEqual([]);

    // Replay resumes: the replica has the transfer, and the writer's mark no longer keeps them off it.
    await one(standby?.url() ?? '', 'select pg_wal_replay_resume()');
    await replicaCaughtUp();
    routed.length = 0;
    expect(sendsIn(await get(b.cookie, '/api/wallet/history'))).toBe(1);
    expect(sendsIn(await get(`${a.cookie}; ${mark}`, '/api/wallet/history'))).toBe(1);
    expect(routed).toEqual([
      { side: 'replica', reason: 'replica' },
      { side: 'replica', reason: 'replica' },
    ]);

    // The replica lost: the same reads are served by the primary.
    await standby?.stop();
    standby = undefined;
    routed.length = 0;
    const fallback = await get(b.cookie, '/api/wallet/history');
    expect(fallback.statusCode).toBe(200);
    expect(sendsIn(fallback)).toBe(1);
    expect(routed).toEqual([{ side: 'primary', reason: 'replica-unavailable' }]);
  });
});
