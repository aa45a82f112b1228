import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, inject } from 'vitest';
import { createDb } from '../db/create-db.ts';
import type { Database } from '../db/schema.ts';

export interface TestDatabase {
  name: string;
  url: string;
  /** The owner's (superuser's) connection: what most tests use to set up and inspect. */
  db: Kysely<Database>;
  /** The same database as the API's own role (cw_app_role, migration 0092): opened on first use. */
  readonly appDb: Kysely<Database>;
  appUrl: string;
  /** Closes the pool and drops the database. */
  destroy(): Promise<void>;
}

async function admin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: inject('pgAdminUrl') });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** A new, empty database on the test cluster; migrated unless `migrate: false`. */
export async function createTestDatabase(options: { migrate?: boolean } = {}): Promise<TestDatabase> {
  const name = `test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const migrated = options.migrate !== false;
  // A clone of the run's migrated template (see global-setup.ts); an empty database when asked.
  const template = migrated ? ` template ${inject('pgTemplate')}` : '';
  await admin((c) => c.query(`create database ${c.escapeIdentifier(name)}${template}`));
  const url = new URL(inject('pgAdminUrl'));
  url.pathname = `/${name}`;
  const app = new URL(url.href);
  const credentials = inject('pgAppCredentials');
  app.username = encodeURIComponent(credentials.user);
  app.password = encodeURIComponent(credentials.password);
  // TEST_DB_AS_APP=1: every test of the run connects as the API's role, to check its grants.
  const db = createDb(process.env.TEST_DB_AS_APP === '1' ? app.href : url.href, { max: 5 });
  let appDb: Kysely<Database> | undefined;
  return {
    name,
    url: url.href,
    appUrl: app.href,
    db,
    get appDb() {
      appDb ??= createDb(app.href, { max: 2 });
      return appDb;
    },
    async destroy() {
      await db.destroy();
      await appDb?.destroy();
      await admin((c) => c.query(`drop database if exists ${c.escapeIdentifier(name)} with (force)`));
    },
  };
}

/**
 * Call at the top of a test file: a fresh migrated database for the file,
 * dropped after it. Read `.db` inside tests or hooks (not at import time).
 */
export function useTestDatabase(): {
  readonly db: Kysely<Database>;
  readonly url: string;
  readonly appDb: Kysely<Database>;
  readonly appUrl: string;
} {
  let current: TestDatabase | undefined;
  beforeAll(async () => {
    current = await createTestDatabase();
  });
  afterAll(async () => {
    await current?.destroy();
  });
  const get = () => {
    if (!current) throw new Error('useTestDatabase(): database not created yet (use it inside tests or hooks)');
    return current;
  };
  return {
    get db() {
      return get().db;
    },
    get url() {
      return get().url;
    },
    get appDb() {
      return get().appDb;
    },
    get appUrl() {
      return get().appUrl;
    },
  };
}
