import { rm } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import type { ArchiveLayout } from '../backup/wal-archive.ts';
import type { EmbeddedPostgres } from '../embedded-postgres.ts';
import { requireSynchronousStandby, startStandby } from './standby.ts';

/**
 * `npm start -- --standby` (issue 34): beside the embedded primary, a streaming replica in
 * DATA_DIR/standby made synchronous (synchronous_standby_names + synchronous_commit = on), so every
 * commit the API acknowledges is on two servers. The standby is disposable: rebuilt from a fresh base
 * backup at every start (its old folder is deleted first), never promoted by `npm start` itself.
 *
 * requireSynchronousStandby persists synchronous_standby_names with ALTER SYSTEM. A later start WITHOUT
 * --standby must clear it, or every commit would wait forever for a standby that is not there.
 */
export const STANDBY_NAME = 'standby1';
export const STANDBY_DIR = 'standby';

export interface EmbeddedReplication {
  standby: EmbeddedPostgres;
  /** postgres://...@127.0.0.1:<standby port>/<database>: a read-only connection to the replica. */
  url(database?: string): string;
}

async function clearSynchronousStandby(adminUrl: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: adminUrl });
  client.on('error', () => undefined);
  await client.connect();
  try {
    const { rows } = await client.query<{ names: string }>(
      `select current_setting('synchronous_standby_names') as names`,
    );
    if ((rows[0]?.names ?? '') === '') return false;
    await client.query('alter system reset synchronous_standby_names');
    await client.query('select pg_reload_conf()');
    return true;
  } finally {
    await client.end().catch(() => undefined);
  }
}

export async function embeddedReplication(options: {
  wanted: boolean;
  primary: EmbeddedPostgres;
  dataDir: string;
  layout: ArchiveLayout | undefined;
  port?: number;
  log: (msg: string) => void;
}): Promise<EmbeddedReplication | undefined> {
  if (!options.wanted) {
    if (await clearSynchronousStandby(options.primary.url()))
      options.log('synchronous_standby_names cleared: started without --standby, commits no longer wait for one');
    return undefined;
  }
  // The standby falls back to the WAL archive when it is behind: without one, refuse rather than lag.
  if (!options.layout) throw new Error('--standby needs WAL archiving, and the backup folder could not be prepared');
  const into = path.join(options.dataDir, STANDBY_DIR);
  await rm(into, { recursive: true, force: true });
  const standby = await startStandby({
    primaryAdminUrl: options.primary.url(),
    primaryDataDir: options.primary.dataDir,
    passwordFile: path.join(options.dataDir, 'pg-password'),
    layout: options.layout,
    into,
    name: STANDBY_NAME,
    ...(options.port === undefined ? {} : { port: options.port }),
    log: options.log,
  });
  try {
    await requireSynchronousStandby(options.primary.url(), STANDBY_NAME);
  } catch (err) {
    await standby.stop().catch(() => undefined);
    throw err;
  }
  options.log(`synchronous standby ${STANDBY_NAME} streaming from ${into}`);
  return { standby, url: (database) => standby.url(database) };
}
