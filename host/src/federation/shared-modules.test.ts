import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../../..');
const table = readFileSync(path.join(import.meta.dirname, 'shared-modules.ts'), 'utf8');

function exportsOf(pkg: string): string[] {
  const manifest = JSON.parse(readFileSync(path.join(root, pkg, 'package.json'), 'utf8')) as {
    exports: Record<string, string>;
  };
  return Object.keys(manifest.exports).map((subpath) => `@cw/${pkg}${subpath.slice(1)}`);
}

// A subpath missing from the host's share table would make a remote load its
// own copy: a second toast store, a second i18n instance, a second session.
describe('host share table', () => {
  const runtimeOnly = new Set(['@cw/shared-ui/standalone-shell']);
  for (const specifier of [...exportsOf('shared-state'), ...exportsOf('shared-ui')]) {
    if (runtimeOnly.has(specifier)) continue;
    it(`provides ${specifier}`, () => {
      expect(table).toContain(`'${specifier}':`);
    });
  }
});
