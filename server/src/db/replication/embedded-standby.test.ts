import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { archiveLayout, archiveSettings, prepareArchive } from '../backup/wal-archive.ts';
import { type EmbeddedPostgres, startEmbeddedPostgres } from '../embedded-postgres.ts';
import { type EmbeddedReplication, embeddedReplication, STANDBY_NAME } from './embedded-standby.ts';

/** `npm start -- --standby` (main.ts calls embeddedReplication): a synchronous replica, cleared without the flag. */
async function query<T>(url: string, text: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text)).rows as T[];
  } finally {
    await client.end();
  }
}

describe('embedded synchronous standby (npm start -- --standby)', () => {
  let dir: string;
  let primary: EmbeddedPostgres | undefined;
  let replication: EmbeddedReplication | undefined;

  afterAll(async () => {
    await replication?.standby.stop();
    await primary?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('streams synchronously with --standby, and a start without it stops commits waiting', {
    timeout: 120_000,
  }, async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'cw-embedded-standby-'));
    const layout = archiveLayout(dir);
    await prepareArchive(layout);
    primary = await startEmbeddedPostgres({ dir, port: 5476, ephemeral: true, settings: archiveSettings(layout) });
    const log: string[] = [];
    replication = await embeddedReplication({
      wanted: true,
      primary,
      dataDir: dir,
      layout,
      port: 5477,
      log: (m) => log.push(m),
    });
    expect(replication).toBeDefined();
    const [stat] = await query<{ sync_state: string; state: string }>(
      primary.url(),
      `select sync_state, state from pg_stat_replication where application_name = '${STANDBY_NAME}'`,
    );
    expect(stat).toEqual({ sync_state: 'sync', state: 'streaming' });
    // An acknowledged commit is already on the standby (remote flush), and the standby is read-only.
    await query(primary.url(), 'create table standby_probe (n int); insert into standby_probe values (42)');
    const standbyUrl = replication?.url() ?? '';
    let seen: { n: number }[] = [];
    for (let i = 0; i < 50 && seen.length === 0; i += 1) {
      seen = await query<{ n: number }>(standbyUrl, 'select n from standby_probe').catch(() => []);
      if (seen.length === 0) await new Promise((r) => setTimeout(r, 100));
    }
    expect(seen).toEqual([{ n: 42 }]);
    await expect(query(standbyUrl, 'insert into standby_probe values (1)')).rejects.toMatchObject({ code: '25006' });

    // Restarted without --standby: the persisted synchronous_standby_names is cleared, commits go through.
    await replication?.standby.stop();
    replication = undefined;
    const none = await embeddedReplication({ wanted: false, primary, dataDir: dir, layout, log: (m) => log.push(m) });
    expect(none).toBeUndefined();
    const [names] = await query<{ s: string }>(
      primary.url(),
      `select current_setting('synchronous_standby_names') as s`,
    );
    expect(names?.s).toBe('');
    await query(primary.url(), 'insert into standby_probe values (43)');
    expect(log.some((l) => l.includes('cleared'))).toBe(true);
  });
});
