import { randomBytes } from 'node:crypto';
import { chmod, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { createDb } from './create-db.ts';
import { type MigrationLogger, migrateToLatest } from './migrate.ts';

/**
 * Two database roles (review 32a, finding 1): the OWNER runs the migrations and owns every table; the
 * APP login (the API, the signer, the workers) is a member of the NOLOGIN group `cw_app_role`, which
 * migration 0092 grants what the app needs, and on the audit log only INSERT/SELECT. So the API's
 * role, if its host or an SQL injection is compromised, cannot rewrite or re-seal the audit chain.
 *
 * Embedded PostgreSQL (no DATABASE_URL): the owner is the cluster's superuser; the app login `cw_app`
 * is made here, its password generated once and kept in DATA_DIR/pg-app-password (0600).
 * External PostgreSQL: MIGRATION_DATABASE_URL is the owner, DATABASE_URL the app login (which the DBA
 * makes a member of cw_app_role). Without MIGRATION_DATABASE_URL the app migrates as itself, as
 * before, and so owns the tables: main.ts warns in production.
 */
export const APP_GROUP_ROLE = 'cw_app_role';
export const APP_LOGIN = 'cw_app';
export const APP_PASSWORD_FILE = 'pg-app-password';

async function appPassword(dataDir: string): Promise<string> {
  const file = path.join(dataDir, APP_PASSWORD_FILE);
  try {
    const existing = (await readFile(file, 'utf8')).trim();
    await chmod(file, 0o600);
    if (existing.length >= 24) return existing;
    throw new Error(`${file} holds no usable password (delete it to make a new one)`);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const password = randomBytes(24).toString('base64url');
  // 'wx': a concurrent start that wrote it first wins; read theirs.
  try {
    await writeFile(file, `${password}\n`, { flag: 'wx', mode: 0o600 });
    return password;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    return (await readFile(file, 'utf8')).trim();
  }
}

/** Creates (or resets the password of) a login in cw_app_role that can never own or bypass anything. */
export async function ensureLoginRole(superuserUrl: string, login: string, password: string): Promise<void> {
  const client = new pg.Client({ connectionString: superuserUrl });
  await client.connect();
  try {
    const role = client.escapeIdentifier(login);
    const secret = client.escapeLiteral(password);
    const attributes = `login inherit nosuperuser nocreatedb nocreaterole noreplication nobypassrls password ${secret}`;
    await client.query(`do $$ begin
      if not exists (select 1 from pg_roles where rolname = '${APP_GROUP_ROLE}') then
        create role ${APP_GROUP_ROLE} nologin;
      end if;
      if not exists (select 1 from pg_roles where rolname = ${client.escapeLiteral(login)}) then
        create role ${role} ${attributes};
      else
        alter role ${role} ${attributes};
      end if;
    exception when duplicate_object or unique_violation then null; -- a concurrent start made them
    end $$`);
    await client.query(`grant ${APP_GROUP_ROLE} to ${role}`);
  } finally {
    await client.end();
  }
}

function withCredentials(url: string, user: string, password: string): string {
  const u = new URL(url);
  u.username = encodeURIComponent(user);
  u.password = encodeURIComponent(password);
  return u.href;
}

/** The embedded cluster's app login: its connection string on `superuserUrl`'s database. */
export async function embeddedAppUrl(superuserUrl: string, dataDir: string): Promise<string> {
  const password = await appPassword(dataDir);
  await ensureLoginRole(superuserUrl, APP_LOGIN, password);
  return withCredentials(superuserUrl, APP_LOGIN, password);
}

/** Migrates on the owner's connection (its own short-lived pool, closed before the app starts). */
export async function migrateAsOwner(ownerUrl: string, logger?: MigrationLogger): Promise<string[]> {
  const owner = createDb(ownerUrl, { max: 1 });
  try {
    return await migrateToLatest(owner, logger);
  } finally {
    await owner.destroy();
  }
}

/**
 * Where to migrate and where to connect: embedded (superuser owner, `cw_app` app), or
 * MIGRATION_DATABASE_URL (owner) + DATABASE_URL (app), or DATABASE_URL alone (legacy: one role).
 */
export async function databaseRoles(
  options: { databaseUrl?: string | undefined; embeddedSuperuserUrl?: string | undefined; dataDir: string },
  env: NodeJS.ProcessEnv,
): Promise<{ ownerUrl: string; appUrl: string; split: boolean }> {
  if (options.embeddedSuperuserUrl !== undefined) {
    const appUrl = await embeddedAppUrl(options.embeddedSuperuserUrl, options.dataDir);
    return { ownerUrl: options.embeddedSuperuserUrl, appUrl, split: true };
  }
  const appUrl = options.databaseUrl;
  if (appUrl === undefined) throw new Error('databaseRoles: no database URL');
  const ownerUrl = env.MIGRATION_DATABASE_URL?.trim() || appUrl;
  return { ownerUrl, appUrl, split: ownerUrl !== appUrl };
}
