import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** server/data/common-passwords.txt: the 10,000 most common passwords (see server/data/README.md). */
export const commonPasswordsFile = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  '..',
  'data',
  'common-passwords.txt',
);

let cached: ReadonlySet<string> | undefined;

/** Lower-cased common passwords, read from disk once per process. */
export function commonPasswords(): ReadonlySet<string> {
  cached ??= new Set(
    readFileSync(commonPasswordsFile, 'utf8')
      .split('\n')
      .map((line) => line.trim().toLowerCase())
      .filter(Boolean),
  );
  return cached;
}

export function isCommonPassword(password: string): boolean {
  return commonPasswords().has(password.toLowerCase());
}
