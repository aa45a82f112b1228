import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { type Kysely, type Migration, type MigrationProvider, type MigrationResultSet, Migrator } from 'kysely';
import type { Database } from './schema.ts';

const migrationsDir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

/** Migration files: `NNNN-description.ts` in db/migrations, applied in name order. */
export const migrationFilePattern = /^\d{4}-[a-z0-9-]+\.ts$/;

class MigrationFolderProvider implements MigrationProvider {
  async getMigrations(): Promise<Record<string, Migration>> {
    const files = (await readdir(migrationsDir)).filter((f) => migrationFilePattern.test(f)).sort();
    const migrations: Record<string, Migration> = {};
    for (const file of files) {
      const mod = (await import(pathToFileURL(path.join(migrationsDir, file)).href)) as Partial<Migration>;
      if (typeof mod.up !== 'function') throw new Error(`Migration ${file} does not export up()`);
      migrations[file.replace(/\.ts$/, '')] = mod as Migration;
    }
    return migrations;
  }
}

export function createMigrator(db: Kysely<Database>): Migrator {
  // Kysely takes a PostgreSQL advisory lock, so concurrent starts are safe.
  return new Migrator({ db, provider: new MigrationFolderProvider() });
}

export interface MigrationLogger {
  info(obj: unknown, msg?: string): void;
}

/** Applies pending migrations; throws if any fails. Returns the names applied. */
export async function migrateToLatest(db: Kysely<Database>, logger?: MigrationLogger): Promise<string[]> {
  const { error, results }: MigrationResultSet = await createMigrator(db).migrateToLatest();
  const applied = (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
  const failed = (results ?? []).find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed`.replace('  ', ' '), { cause: error });
  }
  if (applied.length > 0) logger?.info({ migrations: applied }, 'applied database migrations');
  return applied;
}
