import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../app.ts';
import { reconcile } from '../../modules/ledger/reconcile.ts';
import { archiveLayout, archiveSettings, prepareArchive } from '../backup/wal-archive.ts';
import { createDb } from '../create-db.ts';
import { type EmbeddedPostgres, startEmbeddedPostgres } from '../embedded-postgres.ts';
import { migrateToLatest } from '../migrate.ts';
import type { Database } from '../schema.ts';
import { checkBooks, hotWalletPayments, waitSettled } from './api-drill-check.ts';
import { apiUnavailableMs, startApiLoad } from './api-drill-load.ts';
import { type DrillRig, drillUsers, startDrillRig } from './api-drill-rig.ts';
import { killCluster } from './failover-drill.ts';
import { isMultiHostUrl, splitMultiHostUrl } from './multi-host-pool.ts';
import { failover, requireSynchronousStandby, startStandby } from './standby.ts';

/**
 * Failover drill (issue 34), through the real HTTP API: a primary with a synchronous standby, two app
 * instances built once on a libpq-style multi-host DATABASE_URL, the real signer paying withdrawals on
 * anvil, and 64 clients sending to other users, converting, withdrawing ETH and signing in, each
 * request with its idempotency key and retried with it until acknowledged. SIGKILL the primary's
 * process group, promote the standby. Then: every acknowledged request is booked on the new primary,
 * each key once, and nothing is booked that the clients did not get acknowledged; every session handed
 * out still works; reconcile passes; every withdrawal was paid by exactly one transaction ON THE CHAIN;
 * the old primary's folder refuses to start. `npm run bench:failover` runs it longer (FAILOVER_BENCH=1).
 */
const BENCH = process.env.FAILOVER_BENCH === '1';
const MIX = { send: 24, convert: 16, withdraw: 8, login: 16 };
const LOAD_BEFORE_KILL_MS = BENCH ? 8_000 : 2_000;
const LOAD_AFTER_PROMOTION_MS = BENCH ? 8_000 : 1_000;

describe('failover drill through the HTTP API (64 clients, real signer on anvil)', () => {
  let dir: string;
  let primary: EmbeddedPostgres;
  let standby: EmbeddedPostgres;
  let rig: DrillRig | undefined;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'cw-failover-drill-'));
    const layout = archiveLayout(dir);
    await prepareArchive(layout);
    primary = await startEmbeddedPostgres({
      dir,
      ephemeral: true,
      settings: { ...archiveSettings(layout), synchronous_commit: 'on' },
    });
    await primary.ensureDatabase('wallet');
    const owner = createDb(primary.url('wallet'), { max: 2 });
    await migrateToLatest(owner);
    await owner.destroy();
    const chainsDir = path.join(dir, 'chain-data');
    await mkdir(chainsDir, { recursive: true });
    const [started] = await Promise.all([
      startStandby({
        primaryAdminUrl: primary.url(),
        primaryDataDir: primary.dataDir,
        passwordFile: path.join(dir, 'pg-password'),
        layout,
        into: path.join(dir, 'standby'),
        ephemeral: true,
      }),
      startDrillRig({ chainsDir }).then((r) => {
        rig = r;
      }),
    ]);
    standby = started;
    await requireSynchronousStandby(primary.url());
  }, 300_000);

  afterAll(async () => {
    await rig?.stop();
    await standby?.stop();
    await primary?.stop().catch(() => undefined);
    if (dir) await rm(dir, { recursive: true, force: true });
  }, 120_000);

  it('loses no acknowledged request, books each key once, broadcasts each withdrawal once', {
    timeout: 300_000,
  }, async () => {
    const t0 = Date.now();
    const step = (what: string) => process.stderr.write(`failover drill: ${what} at ${Date.now() - t0} ms\n`);
    const first = new URL(primary.url('wallet'));
    const url = `postgres://${first.username}:${first.password}@127.0.0.1:${primary.port},127.0.0.1:${standby.port}/wallet?target_session_attrs=read-write`;
    expect(isMultiHostUrl(url)).toBe(true);
    expect(splitMultiHostUrl(url)).toEqual([primary.url('wallet'), standby.url('wallet')]);
    if (!rig) throw new Error('no rig');
    const apps = await rig.apps(url, 2);
    const users = await drillUsers(rig, apps[0] as App, MIX);
    const signer = rig.signerLoop(url);
    const fromBlock = await rig.chain.getBlockNumber();
    step('users signed in, signer running');

    const load = startApiLoad({ apps, harness: rig.harness, users });
    // The kill comes once every kind of request has been acknowledged at least once (a loaded machine
    // needs longer for a code mail's round trip), and not before LOAD_BEFORE_KILL_MS.
    const loadStart = Date.now();
    const kinds = ['send', 'convert', 'withdraw', 'login'] as const;
    while (
      Date.now() - loadStart < LOAD_BEFORE_KILL_MS ||
      (!kinds.every((k) => load.log.acked.some((a) => a.kind === k)) && Date.now() - loadStart < 60_000)
    ) {
      await new Promise((r) => setTimeout(r, 100));
    }
    await killCluster(primary.dataDir);
    const killedAt = Date.now();
    step(`primary killed after ${load.log.acked.length} acknowledgements`);
    await failover({ standbyAdminUrl: standby.url(), oldPrimaryDataDir: primary.dataDir, reason: 'drill' });
    const promotedAt = Date.now();
    while (!load.log.acked.some((a) => a.startedAt > promotedAt) && Date.now() - promotedAt < 20_000) {
      await new Promise((r) => setTimeout(r, 100));
    }
    await new Promise((r) => setTimeout(r, LOAD_AFTER_PROMOTION_MS));
    await load.stop();
    step('load stopped');
    const { log } = load;
    expect(log.unexpected).toEqual([]);

    const check: Kysely<Database> = createDb(standby.url('wallet'), { max: 2 });
    try {
      const withdrawals = log.acked.filter((a) => a.kind === 'withdraw');
      const unsettled = await waitSettled(
        check,
        withdrawals.map((a) => a.key),
        30_000,
      );
      await signer.stop();
      step('withdrawals settled');
      const books = await checkBooks(check, log, (ack) =>
        rig ? rig.sessionAlive(apps[1] as App, ack) : Promise.resolve(false),
      );
      const paid = await hotWalletPayments(rig.chain, rig.hot, fromBlock);
      const lost = Object.values(books.lost).reduce((n, keys) => n + keys.length, 0);
      const figures = {
        failover_unavailable_ms: apiUnavailableMs(log, killedAt),
        failover_acknowledged_lost: lost,
        failover_failed_requests: log.failedAttempts,
        failover_acknowledged: log.acked.length,
        failover_withdrawals_paid: withdrawals.length,
        failover_quotes_lost: log.quotesLost,
        failover_slow_code_mails: log.slowMails,
        failover_sessions_past_cap: books.sessionsPastCap,
      };
      for (const [figure, value] of Object.entries(figures)) {
        console.log(JSON.stringify({ figure, value, unit: figure.endsWith('_ms') ? 'ms' : 'count' }));
      }
      expect(unsettled, signer.errors.join('\n')).toEqual([]);
      for (const kind of kinds) {
        expect(log.acked.filter((a) => a.kind === kind && a.at < killedAt).length, kind).toBeGreaterThan(0);
      }
      expect(log.acked.filter((a) => a.startedAt > promotedAt).length).toBeGreaterThan(0);
      expect(books.lost).toEqual({ send: [], convert: [], withdraw: [], login: [] });
      expect(books.unacknowledged).toEqual({ send: [], convert: [], withdraw: [] });
      expect(books.bookedTwice).toEqual([]);
      expect(figures.failover_unavailable_ms).toBeLessThanOrEqual(10_000);
      // Nothing broadcast twice: each withdrawal's address got exactly one transaction from the hot
      // wallet, and the hot wallet sent nothing else.
      expect(withdrawals.filter((a) => paid.get(a.address?.toLowerCase() ?? '') !== 1)).toEqual([]);
      expect([...paid.values()].reduce((n, v) => n + v, 0)).toBe(withdrawals.length);
      expect((await reconcile(check)).ok).toBe(true);
      const { rows } = await sql<{ r: boolean }>`select pg_is_in_recovery() as r`.execute(check);
      expect(rows[0]?.r).toBe(false);
    } finally {
      await signer.stop();
      await check.destroy();
    }
    // Split brain: the old primary's folder never starts writable again.
    await expect(startEmbeddedPostgres({ dir })).rejects.toThrow(/fenced by a failover/);
  });
});
