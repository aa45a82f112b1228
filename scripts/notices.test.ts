import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './lib/paths.ts';

/** `| name | version | licence | ... |` rows of NOTICES.md. */
function notices(): { name: string; version: string; licence: string }[] {
  const rows = readFileSync(path.join(ROOT, 'NOTICES.md'), 'utf8')
    .split('\n')
    .filter((l) => /^\| [@a-z]/.test(l));
  return rows
    .map((row) => row.split('|').map((cell) => cell.trim()))
    .filter((cells) => cells[1] !== 'Package')
    .map((cells) => ({ name: cells[1] ?? '', version: cells[2] ?? '', licence: cells[3] ?? '' }));
}

describe('NOTICES.md', () => {
  it('records the licence and version each listed package is installed with', () => {
    const listed = notices();
    expect(listed.map((n) => n.name)).toContain('@web3icons/react');
    for (const { name, version, licence } of listed) {
      // Read from node_modules directly: a package's exports may not list its package.json.
      const manifest = JSON.parse(readFileSync(path.join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as {
        version: string;
        license: string;
      };
      expect([name, manifest.version, manifest.license]).toEqual([name, version, licence]);
    }
  });
});
