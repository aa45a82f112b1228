import { mkdtemp, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { text } from 'node:stream/consumers';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDatabase } from '../../test/database.ts';
import { createS3Store } from '../uploads/s3-store.ts';
import type { ObjectStore } from '../uploads/storage.ts';
import { runAuditCommand } from './ops-commands.ts';
import { appendAudit } from './repository.ts';
import { exportIfDue, exportToStore } from './s3-anchor.ts';

/** The audit head anchored outside the database: exports to a real S3-compatible server (s3rver). */
const database = useTestDatabase();
const dir = await mkdtemp(path.join(os.tmpdir(), 'cw-audit-s3-'));
const server = new S3rver({
  address: '127.0.0.1',
  port: 0,
  silent: true,
  directory: dir,
  configureBuckets: [{ name: 'cw-audit', configs: [] }],
});
let store: ObjectStore;
beforeAll(async () => {
  const address = (await server.run()) as AddressInfo;
  store = createS3Store({
    endpoint: `http://127.0.0.1:${address.port}`,
    region: 'us-east-1',
    bucket: 'cw-audit',
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
  });
});
afterAll(async () => {
  await server.close();
});
const at = new Date('2030-01-02T03:04:05.000Z');
const t0 = new Date('2030-01-02T04:00:00.000Z');
const HOUR = 3_600_000;

async function objectLines(key: string): Promise<string[]> {
  return (await text(await store.get(key))).trim().split('\n');
}

describe('audit export to S3-compatible storage', () => {
  it('each export holds the rows since the last one and ends with the head; nothing new, no object', async () => {
    for (let i = 0; i < 3; i++) await appendAudit(database.appDb, { event: 'logout', at, details: { i } });
    const lines: string[] = [];
    expect(
      await runAuditCommand(database.appDb, ['export', '--s3'], (l) => lines.push(l), { store: () => store }),
    ).toBe(0);
    const first = await exportToStore(database.appDb, store, t0); // nothing logged since
    expect(first.objectKey).toBeNull();
    await appendAudit(database.appDb, { event: 'logout', at, details: { i: 3 } });
    const second = await exportToStore(database.appDb, store, t0);
    expect(second).toMatchObject({ fromSeq: '3', toSeq: '4', rows: 1 });
    const body = await objectLines(second.objectKey ?? '');
    expect(body).toHaveLength(2);
    expect(JSON.parse(body[1] ?? '')).toEqual({ head: { seq: '4', hash: expect.stringMatching(/^[0-9a-f]{64}$/) } });
    expect(lines[0]).toMatch(/rows #0\.\.#3 \(3\) to audit\/0+-0+3-[0-9a-f]{64}\.jsonl/);
  });

  it('without S3 settings, export --s3 says so and changes nothing', async () => {
    const lines: string[] = [];
    expect(await runAuditCommand(database.appDb, ['export', '--s3'], (l) => lines.push(l), {})).toBe(2);
    expect(lines[0]).toMatch(/no S3 storage configured/);
  });

  it('the schedule lives in the database: two instances at once export once; not again until due', async () => {
    // "Due" is by the database's clock, which stamps each export (migration 0107): a short interval
    // and a short wait stand in for the hour.
    const SHORT_MS = 200;
    await appendAudit(database.appDb, { event: 'logout', at, details: { i: 9 } });
    await sleep(SHORT_MS + 50);
    const later = new Date(t0.getTime() + 2 * HOUR);
    const results = await Promise.all([
      exportIfDue(database.appDb, store, later, SHORT_MS),
      exportIfDue(database.appDb, store, later, SHORT_MS),
    ]);
    expect(results.filter((r) => r?.objectKey)).toHaveLength(1);
    await appendAudit(database.appDb, { event: 'logout', at, details: { i: 10 } });
    expect(await exportIfDue(database.appDb, store, new Date(later.getTime() + HOUR / 2), HOUR)).toBeNull();
    await sleep(SHORT_MS + 50);
    const due = await exportIfDue(database.appDb, store, new Date(later.getTime() + HOUR + 1), SHORT_MS);
    expect(due?.rows).toBe(1);
  });

  it('verify --against an anchored object catches the newest rows deleted by the owner, and a cut-short file', async () => {
    const { rows } = await sql<{ object_key: string }>`
      select object_key from audit_anchors order by to_seq desc limit 1`.execute(database.db);
    const file = path.join(dir, 'anchored.jsonl');
    await writeFile(file, `${(await objectLines(rows[0]?.object_key ?? '')).join('\n')}\n`);
    const run = async (f: string) => {
      const lines: string[] = [];
      const code = await runAuditCommand(database.db, ['verify', '--against', f], (l) => lines.push(l));
      return { code, text: lines.join('\n') };
    };
    expect(await run(file)).toMatchObject({ code: 0 });
    await database.db.transaction().execute(async (trx) => {
      await sql`alter table audit_events disable trigger audit_events_no_update_delete`.execute(trx);
      await sql`alter table audit_chain_head disable trigger audit_chain_head_guard`.execute(trx);
      const { rows: gone } = await sql<{ prev_hash: Buffer; chain_seq: string }>`
        delete from audit_events where chain_seq = (select max(chain_seq) from audit_events)
        returning prev_hash, chain_seq`.execute(trx);
      await sql`update audit_chain_head set seq = seq - 1, hash = ${gone[0]?.prev_hash} where id = 1`.execute(trx);
      await sql`alter table audit_events enable trigger audit_events_no_update_delete`.execute(trx);
      await sql`alter table audit_chain_head enable trigger audit_chain_head_guard`.execute(trx);
    });
    const after = await run(file);
    expect(after.code).toBe(1);
    expect(after.text).toMatch(/DIFFERS: row #\d+ \(audit_events id \d+\) is gone/);
    const cut = path.join(dir, 'cut.jsonl');
    await writeFile(cut, '');
    expect((await run(cut)).text).toMatch(/no head line/);
  });
});
