import { readdirSync } from 'node:fs';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '../..');

const SKIPPED_DIRS = new Set([
  'node_modules',
  '.git',
  'dist',
  '.deploy',
  '.data',
  '.e2e',
  'test-results',
  'playwright-report',
  'coverage',
  '.rspack-cache',
]);

/** Every file under `dir` (absolute paths) whose repository-relative path matches `pattern`. */
export function findFiles(dir: string, pattern: RegExp): string[] {
  const found: string[] = [];
  const walk = (current: string) => {
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      const full = path.join(current, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRS.has(entry.name)) walk(full);
      } else if (pattern.test(relative(full))) {
        found.push(full);
      }
    }
  };
  walk(dir);
  return found.sort();
}

export function relative(file: string): string {
  return path.relative(ROOT, file).split(path.sep).join('/');
}
