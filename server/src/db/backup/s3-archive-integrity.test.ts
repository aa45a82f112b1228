import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { Registry } from 'prom-client';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyRetention } from './base-backup.ts';
import { type S3ArchiveOptions, s3ArchiveOf, shipArchiveToS3, signObject } from './s3-archive.ts';
import { fetchArchiveFromS3 } from './s3-archive-fetch.ts';
import { startS3Shipping } from './s3-archive-schedule.ts';
import { type ArchiveLayout, archiveLayout } from './wal-archive.ts';

/**
 * The bucket is not trusted (review s8 finding 2, 8): a segment swapped in the bucket with its checksum,
 * a name planted before shipping, a manifest whose id climbs out of the archive folder, retention
 * running ahead of the shipper. No PostgreSQL: fake segments and a fake base, s3rver.
 */
const seg = (n: number) => `00000001000000000000000${n}`;

async function fakeArchive(dataDir: string): Promise<ArchiveLayout> {
  const layout = archiveLayout(dataDir);
  await mkdir(layout.walDir, { recursive: true });
  for (const n of [1, 2, 3]) {
    const body = Buffer.from(`segment ${n} ${'x'.repeat(n * 10)}`);
    await writeFile(path.join(layout.walDir, `${seg(n)}.gz`), body);
    const sum = createHash('sha256').update(body).digest('hex');
    await writeFile(path.join(layout.walDir, `${seg(n)}.gz.sha256`), `${sum}  ${seg(n)}.gz\n`);
  }
  for (const [id, start] of [
    ['20261101T000000Z', 1],
    ['20261102T000000Z', 2],
  ] as const) {
    const folder = path.join(layout.baseDir, id);
    await mkdir(folder, { recursive: true });
    await writeFile(path.join(folder, 'base.tar.gz'), `tar of ${id}`);
    await writeFile(path.join(folder, 'backup_label'), 'label');
    const manifest = { id, startWal: seg(start), consistentAt: `2026-11-0${start}T00:00:00.000Z` };
    await writeFile(path.join(folder, 'manifest.json'), JSON.stringify(manifest));
  }
  return layout;
}

describe('S3 archive integrity', () => {
  let dir: string;
  let server: S3rver;
  let uploads: { endpoint: string; region: string; bucket: string; accessKeyId: string; secretAccessKey: string };
  let client: S3Client;
  let n = 0;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'cw-s3-integrity-'));
    server = new S3rver({
      address: '127.0.0.1',
      port: 0,
      silent: true,
      directory: path.join(dir, 's3'),
      configureBuckets: [{ name: 'cw-backup', configs: [] }],
    });
    const address = (await server.run()) as AddressInfo;
    uploads = {
      endpoint: `http://127.0.0.1:${address.port}`,
      region: 'us-east-1',
      bucket: 'cw-backup',
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
    };
    client = new S3Client({
      endpoint: uploads.endpoint,
      region: uploads.region,
      forcePathStyle: true,
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    });
  });
  afterAll(async () => {
    client?.destroy();
    await server?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  /** A fresh prefix per test, the primary's DATA_DIR and its archive. */
  async function setup(): Promise<{ s3: S3ArchiveOptions; layout: ArchiveLayout; dataDir: string }> {
    n += 1;
    const dataDir = path.join(dir, `primary-${n}`);
    const layout = await fakeArchive(dataDir);
    const s3 = s3ArchiveOf(uploads, { BACKUP_S3_PREFIX: `t${n}/` }, { dataDir, createKey: true }) as S3ArchiveOptions;
    return { s3, layout, dataDir };
  }
  const put = (key: string, body: Buffer | string, mac?: string) =>
    client.send(
      new PutObjectCommand({
        Bucket: 'cw-backup',
        Key: key,
        Body: body,
        ...(mac ? { Metadata: { 'cw-mac': mac } } : {}),
      }),
    );
  const get = async (key: string) => {
    const answer = await client.send(new GetObjectCommand({ Bucket: 'cw-backup', Key: key }));
    return Buffer.from((await answer.Body?.transformToByteArray()) ?? []);
  };

  it('keeps the signing key in DATA_DIR, mode 0600; BACKUP_S3_* credential', async () => {
    const { dataDir } = await setup();
    const info = await stat(path.join(dataDir, 'backup-signing-key'));
    expect(info.mode & 0o777).toBe(0o600);
    // The archive's own bucket and credential, falling back to the uploads' S3_* setting by setting.
    const key = { dataDir, createKey: false };
    const own = { BACKUP_S3_BUCKET: 'b2', BACKUP_S3_ACCESS_KEY_ID: 'AK', BACKUP_S3_SECRET_ACCESS_KEY: 'SK' };
    expect(s3ArchiveOf(uploads, own, key)).toMatchObject({ bucket: 'b2', accessKeyId: 'AK', secretAccessKey: 'SK' });
    expect(s3ArchiveOf(uploads, {}, key)).toMatchObject({ bucket: 'cw-backup', accessKeyId: 'S3RVER' });
    expect(() => s3ArchiveOf(uploads, { BACKUP_S3_ACCESS_KEY_ID: 'AK' }, key)).toThrow(/go together/);
    expect(() => s3ArchiveOf(uploads, {}, { dataDir: path.join(dir, 'nowhere'), createKey: false })).toThrow(
      /no backup signing key/,
    );
  });

  it('refuses a segment swapped in the bucket with its checksum, naming it', async () => {
    const { s3, layout, dataDir } = await setup();
    await shipArchiveToS3(layout, s3);
    // Whoever holds the bucket credential copies segment 2 (and its matching checksum) over segment 3.
    const prefix = s3.prefix;
    await put(`${prefix}wal/${seg(3)}.gz`, await get(`${prefix}wal/${seg(2)}.gz`));
    await put(`${prefix}wal/${seg(3)}.gz.sha256`, await get(`${prefix}wal/${seg(2)}.gz.sha256`));
    const into = archiveLayout(path.join(dir, `restore-${n}`));
    await mkdir(into.walDir, { recursive: true });
    await mkdir(into.baseDir, { recursive: true });
    const reader = s3ArchiveOf(
      uploads,
      { BACKUP_S3_PREFIX: prefix },
      { dataDir, createKey: false },
    ) as S3ArchiveOptions;
    await expect(fetchArchiveFromS3(reader, into, 'latest')).rejects.toThrow(`wal/${seg(3)}.gz`);
  });

  /** An empty archive folder to restore into. */
  async function restoreInto(): Promise<{ root: string; into: ArchiveLayout }> {
    const root = path.join(dir, `restore-${n}`);
    const into = archiveLayout(root);
    await mkdir(into.walDir, { recursive: true });
    await mkdir(into.baseDir, { recursive: true });
    return { root, into };
  }

  it('skips a manifest whose id leaves the archive folder, even when signed, with a warning', async () => {
    const { s3, layout } = await setup();
    await shipArchiveToS3(layout, s3);
    const manifest = JSON.stringify({ id: '../escape', startWal: seg(3), consistentAt: '2026-11-03T00:00:00.000Z' });
    const key = 'base/20261103T000000Z/manifest.json';
    await put(`${s3.prefix}${key}`, manifest, signObject(s3, key, Buffer.from(manifest)));
    const { root, into } = await restoreInto();
    const warnings: string[] = [];
    const fetched = await fetchArchiveFromS3(s3, into, 'latest', (w) => warnings.push(w));
    expect(fetched.base.id).toBe('20261102T000000Z');
    expect(warnings.join('\n')).toMatch(/20261103T000000Z.*manifest id/);
    expect(existsSync(path.join(root, 'backup', 'escape.partial'))).toBe(false);
    expect(existsSync(path.join(root, 'backup', 'escape'))).toBe(false);
  });

  it('an unsigned (pre-MAC) or junk manifest is skipped with a warning; restore uses a signed base (review s8b C)', async () => {
    const { s3, layout } = await setup();
    await shipArchiveToS3(layout, s3);
    // An old base shipped before MACs existed, and a stray object under a manifest name.
    const old = { id: '20261020T000000Z', startWal: seg(1), consistentAt: '2026-10-20T00:00:00.000Z' };
    await put(`${s3.prefix}base/${old.id}/manifest.json`, JSON.stringify(old));
    await put(`${s3.prefix}base/x.y/manifest.json`, 'junk');
    const { into } = await restoreInto();
    const warnings: string[] = [];
    const fetched = await fetchArchiveFromS3(s3, into, 'latest', (w) => warnings.push(w));
    expect(fetched.base.id).toBe('20261102T000000Z');
    expect(fetched.segments).toBe(2);
    expect(warnings.join('\n')).toContain(`base/${old.id}/manifest.json`);
    expect(warnings.join('\n')).toContain('base/x.y/manifest.json');
  });

  it('reports a name planted in the bucket before shipping as a conflict, not as shipped', async () => {
    const { s3, layout } = await setup();
    await put(`${s3.prefix}wal/${seg(3)}.gz`, 'planted');
    await put(`${s3.prefix}wal/${seg(3)}.gz.sha256`, 'planted');
    const pending: number[] = [];
    await expect(shipArchiveToS3(layout, s3, (p) => pending.push(p))).rejects.toThrow(new RegExp(`${seg(3)}.*differs`));
    expect(pending.at(-1)).toBeGreaterThan(0);
  });

  it('a base whose manifest name is planted in the bucket is a conflict, not skipped as shipped (review s8b D)', async () => {
    const { s3, layout } = await setup();
    await put(`${s3.prefix}base/20261102T000000Z/manifest.json`, 'planted');
    await expect(shipArchiveToS3(layout, s3)).rejects.toThrow(/base 20261102T000000Z.*differs/);
    // The base whose copy is ours passes, and a base shipped before MACs is signed (no conflict).
    for (const name of ['base.tar.gz', 'backup_label', 'manifest.json'])
      await put(
        `${s3.prefix}base/20261102T000000Z/${name}`,
        await readFile(path.join(layout.baseDir, '20261102T000000Z', name)),
      );
    expect(await shipArchiveToS3(layout, s3)).toEqual({ walShipped: 0, basesShipped: 0 });
    expect(existsSync(path.join(layout.baseDir, '20261102T000000Z', 's3-shipped'))).toBe(true);
  });

  it('same sizes, other checksum: a conflict too, shown as lag and a failed run', async () => {
    const { s3, layout } = await setup();
    const local = await readFile(path.join(layout.walDir, `${seg(3)}.gz`));
    const sum = await readFile(path.join(layout.walDir, `${seg(3)}.gz.sha256`), 'utf8');
    await put(`${s3.prefix}wal/${seg(3)}.gz`, Buffer.alloc(local.length, 0x41));
    await put(`${s3.prefix}wal/${seg(3)}.gz.sha256`, `${'0'.repeat(64)}${sum.slice(64)}`);
    const registry = new Registry();
    const logs: string[] = [];
    const shipping = startS3Shipping({ layout, s3, registry, intervalMs: 3_600_000, log: (_l, m) => logs.push(m) });
    await shipping.runOnce();
    shipping.stop();
    expect(logs.join('\n')).toMatch(new RegExp(`${seg(3)}.*differs`));
    expect(await registry.getSingleMetricAsString('pg_archive_s3_lag_segments')).toMatch(/ 1$/m);
    expect(await registry.getSingleMetricAsString('pg_archive_s3_failed_total')).toMatch(/ 1$/m);
  });

  /** What SSE-KMS/SSE-C (or an auto-encrypting MinIO) does: a 32-hex ETag that is not the MD5 of the data. */
  async function fakeKmsEtags(prefix: string, keys: string[]) {
    for (const key of keys) {
      const md5 = path.join(dir, 's3', 'cw-backup', ...`${prefix}${key}._S3rver_object.md5`.split('/'));
      await writeFile(md5, createHash('md5').update(`kms ${key}`).digest('hex'));
    }
  }

  it('SSE-KMS ETags (32 hex, not MD5): shipped segments are not conflicts; lag 0 (review s8b E)', async () => {
    const { s3, layout } = await setup();
    await shipArchiveToS3(layout, s3);
    await fakeKmsEtags(
      s3.prefix,
      [1, 2, 3].flatMap((k) => [`wal/${seg(k)}.gz`, `wal/${seg(k)}.gz.sha256`]),
    );
    // Without the marker every segment is checked against the bucket again (a lost or fresh marker).
    await rm(path.join(layout.root, 's3-shipped'));
    const registry = new Registry();
    const logs: string[] = [];
    const shipping = startS3Shipping({ layout, s3, registry, intervalMs: 3_600_000, log: (_l, m) => logs.push(m) });
    await shipping.runOnce();
    shipping.stop();
    expect(logs.join('\n')).not.toMatch(/differs/);
    expect(await registry.getSingleMetricAsString('pg_archive_s3_lag_segments')).toMatch(/ 0$/m);
    expect(await registry.getSingleMetricAsString('pg_archive_s3_failed_total')).toMatch(/ 0$/m);
    expect(await readFile(path.join(layout.root, 's3-shipped'), 'utf8')).toBe(`${seg(3)}\n`);
  });

  it('an object shipped before MACs existed is checked by content and signed, never an endless conflict', async () => {
    const { s3, layout } = await setup();
    for (const k of [1, 2, 3])
      for (const name of [`${seg(k)}.gz`, `${seg(k)}.gz.sha256`])
        await put(`${s3.prefix}wal/${name}`, await readFile(path.join(layout.walDir, name)));
    expect(await shipArchiveToS3(layout, s3)).toMatchObject({ walShipped: 0 });
    const head = await client.send(new HeadObjectCommand({ Bucket: 'cw-backup', Key: `${s3.prefix}wal/${seg(2)}.gz` }));
    expect(head.Metadata?.['cw-mac']).toMatch(/^[0-9a-f]{64}$/);
  });

  it('a host with a new signing key refuses to ship into a prefix another key owns (review s8b B)', async () => {
    const { s3, layout } = await setup();
    await shipArchiveToS3(layout, s3);
    // A restored copy or promoted standby started without the primary's key file: a new key is made.
    const otherDir = path.join(dir, `other-${n}`);
    const other = await fakeArchive(otherDir);
    await writeFile(path.join(other.walDir, `${seg(4)}.gz`), 'segment 4 of another cluster');
    await writeFile(path.join(other.walDir, `${seg(4)}.gz.sha256`), 'x');
    const b = s3ArchiveOf(uploads, { BACKUP_S3_PREFIX: s3.prefix }, { dataDir: otherDir, createKey: true });
    await expect(shipArchiveToS3(other, b as S3ArchiveOptions)).rejects.toThrow(/refused.*Copy backup-signing-key/);
    // A prefix shipped before the owner object existed: the signed objects there say the same.
    await client.send(new DeleteObjectCommand({ Bucket: 'cw-backup', Key: `${s3.prefix}owner` }));
    const again = s3ArchiveOf(uploads, { BACKUP_S3_PREFIX: s3.prefix }, { dataDir: otherDir, createKey: true });
    await expect(shipArchiveToS3(other, again as S3ArchiveOptions)).rejects.toThrow(/signed with another key/);
    const listed = await client.send(
      new ListObjectsV2Command({ Bucket: 'cw-backup', Prefix: `${s3.prefix}wal/${seg(4)}` }),
    );
    expect(listed.Contents ?? []).toEqual([]);
    // The owner's own shipper goes on (and claims the prefix again).
    await expect(shipArchiveToS3(layout, { ...s3 })).resolves.toMatchObject({ walShipped: 0 });
  });

  it('retention keeps the segments the bucket has not received', async () => {
    const { s3, layout } = await setup();
    await shipArchiveToS3(layout, s3);
    // The second run lists from the oldest local segment on (StartAfter) and finds everything shipped.
    expect(await shipArchiveToS3(layout, s3)).toEqual({ walShipped: 0, basesShipped: 0 });
    // A newer base, and segments 4 and 5 the bucket never gets (S3 down).
    for (const k of [4, 5]) {
      await writeFile(path.join(layout.walDir, `${seg(k)}.gz`), `segment ${k}`);
      await writeFile(path.join(layout.walDir, `${seg(k)}.gz.sha256`), 'x');
    }
    const folder = path.join(layout.baseDir, '20261106T000000Z');
    await mkdir(folder, { recursive: true });
    await writeFile(
      path.join(folder, 'manifest.json'),
      JSON.stringify({
        id: '20261106T000000Z',
        startWal: `0000000100000000000000${'06'}`,
        consistentAt: '2026-11-06T00:00:00.000Z',
      }),
    );
    await applyRetention(layout, 1);
    const left = (await readdir(layout.walDir)).filter((f) => f.endsWith('.gz'));
    expect(left.sort()).toEqual([`${seg(4)}.gz`, `${seg(5)}.gz`]);
    expect(await readFile(path.join(layout.walDir, `${seg(4)}.gz`), 'utf8')).toBe('segment 4');
  });
});
