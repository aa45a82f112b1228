import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { ensureLoginRole } from '../db/app-role.ts';
import { createDb } from '../db/create-db.ts';
import { startEmbeddedPostgres } from '../db/embedded-postgres.ts';
import { migrateToLatest } from '../db/migrate.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Superuser URL of the PostgreSQL server the tests create their databases on. */
    pgAdminUrl: string;
    /** A migrated database that test databases are cloned from (CREATE DATABASE … TEMPLATE). */
    pgTemplate: string;
    /** What migrateToLatest applied to the template, a fresh database, in order (db/migrations.test.ts). */
    pgTemplateMigrations: string[];
    /** user:password of a login in cw_app_role (migration 0092): the API's own, non-owner role. */
    pgAppCredentials: { user: string; password: string };
  }
}

/**
 * Starts ONE throw-away PostgreSQL cluster for the test run (or uses
 * TEST_DATABASE_URL, a superuser URL of an existing server).
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const external = process.env.TEST_DATABASE_URL;
  if (external) {
    const dropTemplate = await provideTemplate(project, external);
    project.provide('pgAdminUrl', external);
    return dropTemplate;
  }
  const dir = await mkdtemp(path.join(os.tmpdir(), 'cw-server-test-'));
  const pg = await startEmbeddedPostgres({ dir, ephemeral: true });
  project.provide('pgAdminUrl', pg.url());
  await provideTemplate(project, pg.url());
  return async () => {
    await pg.stop();
    await rm(dir, { recursive: true, force: true });
  };
}

async function admin(adminUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * Migrates one database once per run; every test file clones it (CREATE DATABASE … TEMPLATE), which
 * takes milliseconds where running the ~60 migrations per file took seconds. The template must have
 * no open connection while it is cloned, so its pool is closed before any test starts.
 */
async function provideTemplate(project: TestProject, adminUrl: string): Promise<() => Promise<void>> {
  const name = `cw_template_${process.pid}_${randomBytes(4).toString('hex')}`;
  await admin(adminUrl, `create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const db = createDb(url.href, { max: 1 });
  let applied: string[];
  try {
    applied = await migrateToLatest(db);
  } finally {
    await db.destroy();
  }
  project.provide('pgTemplate', name);
  project.provide('pgTemplateMigrations', applied);
  // The role the API runs as (db/app-role.ts): tests that check what it may not do connect as it.
  const credentials = { user: 'cw_test_app', password: randomBytes(18).toString('base64url') };
  await ensureLoginRole(adminUrl, credentials.user, credentials.password);
  project.provide('pgAppCredentials', credentials);
  return () => admin(adminUrl, `drop database if exists ${name} with (force)`);
}
