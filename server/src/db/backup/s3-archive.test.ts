import { chmod, mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Kysely } from 'kysely';
import { Registry } from 'prom-client';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLedgerService } from '../../modules/ledger/service.ts';
import { createDb } from '../create-db.ts';
import { type EmbeddedPostgres, startEmbeddedPostgres } from '../embedded-postgres.ts';
import { migrateToLatest } from '../migrate.ts';
import type { Database } from '../schema.ts';
import { takeBaseBackup } from './base-backup.ts';
import { runRestoreCommand } from './ops-commands.ts';
import { isUnadoptedRestore } from './restored-marker.ts';
import { type S3ArchiveOptions, s3ArchiveOf } from './s3-archive.ts';
import { startS3Shipping } from './s3-archive-schedule.ts';
import { readShipping } from './s3-shipping-record.ts';
import { type ArchiveLayout, archiveLayout, archiveSettings, flushArchive, prepareArchive } from './wal-archive.ts';

/**
 * The archive on S3-compatible storage (s3rver, as the uploads' tests): segments and a base shipped to
 * the bucket, the local archive then LOST, and `restore --from s3` to a time T between two batches of
 * transfers: the restored books reconcile and hold the first batch, not the second.
 */
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('WAL archive on S3 and restore from it', () => {
  let dir: string;
  let primary: EmbeddedPostgres;
  let db: Kysely<Database>;
  let layout: ArchiveLayout;
  let server: S3rver;
  let s3: S3ArchiveOptions;
  let restored: EmbeddedPostgres | undefined;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'cw-s3-archive-'));
    // PostgreSQL runs as `postgres` under root: it must reach the archive inside this folder.
    await chmod(dir, 0o755);
    server = new S3rver({
      address: '127.0.0.1',
      port: 0,
      silent: true,
      directory: path.join(dir, 's3'),
      configureBuckets: [{ name: 'cw-backup', configs: [] }],
    });
    const address = (await server.run()) as AddressInfo;
    const uploads = {
      endpoint: `http://127.0.0.1:${address.port}`,
      region: 'us-east-1',
      bucket: 'cw-backup',
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
    };
    layout = archiveLayout(path.join(dir, 'primary'));
    await prepareArchive(layout);
    s3 = s3ArchiveOf(uploads, {}, { dataDir: path.join(dir, 'primary'), createKey: true }) as S3ArchiveOptions;
    primary = await startEmbeddedPostgres({
      dir: path.join(dir, 'primary'),
      ephemeral: true,
      settings: archiveSettings(layout, 30),
    });
    await primary.ensureDatabase('wallet');
    db = createDb(primary.url('wallet'), { max: 4 });
    await migrateToLatest(db);
  }, 120_000);

  afterAll(async () => {
    await db?.destroy();
    await restored?.stop();
    await primary?.stop();
    await server?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('ships segments and a base, and restores from the bucket alone to a time T', { timeout: 180_000 }, async () => {
    const key = { dataDir: path.join(dir, 'primary'), createKey: false };
    expect(s3ArchiveOf(undefined, {}, key)).toBeUndefined();
    expect(s3ArchiveOf({ ...s3 }, { BACKUP_S3: 'off' }, key)).toBeUndefined();
    const ledger = createLedgerService({ db, now: () => new Date() });
    const { id: userId } = await db.insertInto('users').defaultValues().returning('id').executeTakeFirstOrThrow();
    const base = await takeBaseBackup({ adminUrl: primary.url(), dataDir: primary.dataDir, layout });
    const deposit = (key: string) => ledger.deposit({ idempotencyKey: key, userId, asset: 'USDC', amountMinor: 7n });
    for (let i = 0; i < 5; i += 1) await deposit(`before-${i}`);
    await sleep(300);
    const T = new Date();
    await sleep(300);
    for (let i = 0; i < 5; i += 1) await deposit(`after-${i}`);
    await flushArchive(db);

    const registry = new Registry();
    const logs: string[] = [];
    const shipping = startS3Shipping({
      layout,
      s3,
      registry,
      db,
      intervalMs: 3_600_000,
      log: (_l, m) => logs.push(m),
    });
    await shipping.runOnce();
    shipping.stop();
    expect(logs.join('\n')).toMatch(/[1-9]\d* segment\(s\), 1 base backup\(s\) shipped/);
    expect(await registry.getSingleMetricAsString('pg_archive_s3_lag_segments')).toMatch(/ 0$/m);
    expect(await registry.getSingleMetricAsString('pg_archive_s3_failed_total')).toMatch(/ 0$/m);
    // The run is recorded in PostgreSQL for the operator dashboard (any instance reads it there).
    expect(await readShipping(db)).toMatchObject({ lagSegments: 0, failedRuns: 0, lastError: null });
    expect((await readShipping(db))?.lastSuccessAt).toBeInstanceOf(Date);

    // The primary's archive folder is lost: only the bucket is left.
    await rm(layout.walDir, { recursive: true, force: true });
    await rm(layout.baseDir, { recursive: true, force: true });

    const into = path.join(dir, 'restored');
    const out: string[] = [];
    const code = await runRestoreCommand(
      {
        dataDir: path.join(dir, 'primary'),
        clusterDir: primary.dataDir,
        runningUrl: async () => undefined,
        s3,
        out: (l) => out.push(l),
        err: (l) => out.push(`ERR ${l}`),
      },
      ['--to', T.toISOString(), '--into', into, '--from', 's3'],
    );
    expect(code, out.join('\n')).toBe(0);
    expect(out.join('\n')).toContain(`fetched base ${base.id}`);
    expect(out.at(-1)).toBe('restored');
    // Review s8b B: the copy ships nothing to the bucket until an operator adopts it.
    expect(isUnadoptedRestore(into)).toBe(true);

    restored = await startEmbeddedPostgres({ dir: into, ephemeral: true });
    const rdb = createDb(restored.url('wallet'), { max: 1 });
    try {
      const keys = (await rdb.selectFrom('ledger_transfers').select('idempotency_key').execute()).map(
        (r) => r.idempotency_key,
      );
      expect(keys.filter((k) => k.startsWith('before-')).sort()).toEqual([0, 1, 2, 3, 4].map((i) => `before-${i}`));
      expect(keys.filter((k) => k.startsWith('after-'))).toEqual([]);
    } finally {
      await rdb.destroy();
    }
  });
});
