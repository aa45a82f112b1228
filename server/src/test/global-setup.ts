import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres } from '../db/embedded-postgres.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Superuser URL of the PostgreSQL server the tests create their databases on. */
    pgAdminUrl: string;
  }
}

/**
 * Starts ONE throw-away PostgreSQL cluster for the test run (or uses
 * TEST_DATABASE_URL, a superuser URL of an existing server).
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const external = process.env.TEST_DATABASE_URL;
  if (external) {
    project.provide('pgAdminUrl', external);
    return async () => undefined;
  }
  const dir = await mkdtemp(path.join(os.tmpdir(), 'cw-server-test-'));
  const pg = await startEmbeddedPostgres({ dir, ephemeral: true });
  project.provide('pgAdminUrl', pg.url());
  return async () => {
    await pg.stop();
    await rm(dir, { recursive: true, force: true });
  };
}
