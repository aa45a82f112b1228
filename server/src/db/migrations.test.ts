import { readdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { NO_MIGRATIONS } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../test/database.ts';
import { createMigrator, migrateToLatest, migrationFilePattern } from './migrate.ts';

/*
 * The run's template database (test/global-setup.ts) is a fresh, empty database that migrateToLatest
 * took to the latest schema before any test: what it applied is checked here, and this file works on a
 * clone of it, instead of running every migration once more up front (a third of this file's time).
 */
describe('migrations', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.destroy());

  const migrationFiles = async () =>
    (await readdir(fileURLToPath(new URL('./migrations', import.meta.url)))).filter((f) => !f.endsWith('.test.ts'));

  it('are named NNNN-description.ts with unique numbers', async () => {
    const files = await migrationFiles();
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) expect(file).toMatch(migrationFilePattern);
    const numbers = files.map((f) => f.slice(0, 4));
    expect(new Set(numbers).size).toBe(numbers.length);
  });

  it('apply in order on a fresh database, then are a no-op', async () => {
    const expected = (await migrationFiles()).sort().map((f) => f.replace(/\.ts$/, ''));
    expect(expected.slice(0, 2)).toEqual(['0001-users', '0002-user-settings']);
    expect(inject('pgTemplateMigrations')).toEqual(expected);
    const tables = (await database.db.introspection.getTables()).map((t) => t.name);
    expect(tables).toEqual(expect.arrayContaining(['users', 'user_settings']));
    expect(await migrateToLatest(database.db)).toEqual([]);
  });

  it('roll back to an empty schema', async () => {
    const { error } = await createMigrator(database.db).migrateTo(NO_MIGRATIONS);
    expect(error).toBeUndefined();
    expect(await database.db.introspection.getTables()).toEqual([]);
    expect((await migrateToLatest(database.db)).length).toBe((await migrationFiles()).length);
  });
});
