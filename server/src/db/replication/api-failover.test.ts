import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../app.ts';
import { createLedgerService } from '../../modules/ledger/service.ts';
import { buildTestApp, createUser, TEST_USER_HEADER } from '../../test/app.ts';
import { archiveLayout, archiveSettings, prepareArchive } from '../backup/wal-archive.ts';
import { createDb } from '../create-db.ts';
import { type EmbeddedPostgres, startEmbeddedPostgres } from '../embedded-postgres.ts';
import { migrateToLatest } from '../migrate.ts';
import type { Database } from '../schema.ts';
import { killCluster } from './failover-drill.ts';
import { isMultiHostUrl } from './multi-host-pool.ts';
import { failover, requireSynchronousStandby, startStandby } from './standby.ts';

/**
 * Issue 34, the API's side of a failover: the app is built ONCE on a libpq-style multi-host
 * DATABASE_URL (`h1,h2 ... target_session_attrs=read-write`, through the ordinary createDb); the
 * primary is SIGKILLed and the standby promoted; the same app instance, never restarted, serves the
 * user's balance from the new primary, including a write made after the promotion.
 */
const PRIMARY_PORT = 5474;
const STANDBY_PORT = 5475;

function balanceOf(body: unknown, asset: string): string | undefined {
  return (body as { asset: string; availableMinor: string }[]).find((b) => b.asset === asset)?.availableMinor;
}

describe('API on a multi-host DATABASE_URL across a failover', () => {
  let dir: string;
  let primary: EmbeddedPostgres;
  let standby: EmbeddedPostgres;
  let db: Kysely<Database> | undefined;
  let app: App | undefined;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'cw-api-failover-'));
    const layout = archiveLayout(dir);
    await prepareArchive(layout);
    primary = await startEmbeddedPostgres({
      dir,
      port: PRIMARY_PORT,
      ephemeral: true,
      settings: { ...archiveSettings(layout), synchronous_commit: 'on' },
    });
    await primary.ensureDatabase('wallet');
    const owner = createDb(primary.url('wallet'), { max: 2 });
    await migrateToLatest(owner);
    await owner.destroy();
    standby = await startStandby({
      primaryAdminUrl: primary.url(),
      primaryDataDir: primary.dataDir,
      passwordFile: path.join(dir, 'pg-password'),
      layout,
      into: path.join(dir, 'standby'),
      port: STANDBY_PORT,
      ephemeral: true,
    });
    await requireSynchronousStandby(primary.url());
  }, 180_000);

  afterAll(async () => {
    await app?.close();
    await db?.destroy();
    await standby?.stop();
    await primary?.stop().catch(() => undefined);
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('serves a request after the standby is promoted, without restarting the app', { timeout: 90_000 }, async () => {
    const first = new URL(primary.url('wallet'));
    const url = `postgres://${first.username}:${first.password}@127.0.0.1:${PRIMARY_PORT},127.0.0.1:${STANDBY_PORT}/wallet?target_session_attrs=read-write`;
    expect(isMultiHostUrl(url)).toBe(true);
    expect(isMultiHostUrl(primary.url('wallet'))).toBe(false);
    db = createDb(url, { max: 4 });
    app = buildTestApp({ db });
    const ledger = createLedgerService({ db, now: () => new Date() });
    const userId = await createUser(db);
    await ledger.deposit({ idempotencyKey: 'api-fo-1', userId, asset: 'USDC', amountMinor: 1_000n });
    const headers = { [TEST_USER_HEADER]: userId };
    const before = await app.inject({ method: 'GET', url: '/api/me/balances', headers });
    expect(before.statusCode).toBe(200);
    expect(balanceOf(before.json(), 'USDC')).toBe('1000');

    await killCluster(primary.dataDir);
    await failover({ standbyAdminUrl: standby.url(), oldPrimaryDataDir: primary.dataDir, reason: 'api drill' });

    // The first checkout after the kill may fail (the pool learns the host died); a client retries.
    const deadline = Date.now() + 20_000;
    let after = await app.inject({ method: 'GET', url: '/api/me/balances', headers });
    while (after.statusCode !== 200 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      after = await app.inject({ method: 'GET', url: '/api/me/balances', headers });
    }
    expect(after.statusCode).toBe(200);
    expect(balanceOf(after.json(), 'USDC')).toBe('1000');
    // A write after the promotion lands on the new primary and the same app reads it back.
    await ledger.deposit({ idempotencyKey: 'api-fo-2', userId, asset: 'USDC', amountMinor: 500n });
    const written = await app.inject({ method: 'GET', url: '/api/me/balances', headers });
    expect(balanceOf(written.json(), 'USDC')).toBe('1500');
  });
});
