import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cdnVersionOf, publishFolder } from './publish-folder.ts';

const root = mkdtempSync(path.join(tmpdir(), 'cw-publish-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function folder(name: string, files: Record<string, string>): string {
  const dir = path.join(root, name);
  mkdirSync(dir, { recursive: true });
  for (const [file, text] of Object.entries(files)) writeFileSync(path.join(dir, file), text);
  return dir;
}

describe('a version folder on the CDN or in deploy/ (review s8, finding 7)', () => {
  it('takes the version a CDN build was made for, refusing "." and ".." (they name the CDN folder itself)', () => {
    const cdn = 'https://cdn.example';
    expect(cdnVersionOf(`${cdn}/wallet/1.0.0-cdnx/`, cdn, 'wallet')).toBe('1.0.0-cdnx');
    for (const bad of ['../', './', '.../', '', 'a/b/', '1.0.0', 'a b/']) {
      expect([bad, cdnVersionOf(`${cdn}/wallet/${bad}`, cdn, 'wallet')]).toEqual([bad, undefined]);
    }
    expect(cdnVersionOf('https://other.example/wallet/1.0.0/', cdn, 'wallet')).toBeUndefined();
  });

  it('copies through a staging folder, and leaves no staging folder when the switch is refused', async () => {
    const served = path.join(root, 'cdn', 'wallet');
    const target = path.join(served, '1.0.0');
    await publishFolder(folder('build1', { 'remoteEntry.js': 'one', 'x.js.map': '{}' }), target);
    expect(readdirSync(target)).toEqual(['remoteEntry.js']);
    // A second deploy to the same (non-empty) folder: rename refuses, nothing is left in the served folder.
    await expect(publishFolder(folder('build2', { 'remoteEntry.js': 'two' }), target)).rejects.toThrow();
    expect(readdirSync(served)).toEqual(['1.0.0']);
    expect(readFileSync(path.join(target, 'remoteEntry.js'), 'utf8')).toBe('one');
    // A failing step between copy and switch (precompress) cleans up too.
    const other = path.join(served, '1.1.0');
    const failing = async () => {
      throw new Error('disk full');
    };
    await expect(publishFolder(folder('build3', { 'a.js': 'a' }), other, failing)).rejects.toThrow(/disk full/);
    expect([existsSync(other), readdirSync(served)]).toEqual([false, ['1.0.0']]);
  });
});
