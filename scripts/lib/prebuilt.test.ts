import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { copyPrebuilt, publicPathOf } from './prebuilt.ts';

const root = mkdtempSync(path.join(tmpdir(), 'cw-prebuilt-test-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function build(name: string, files: Record<string, string>): string {
  const dir = path.join(root, name);
  mkdirSync(dir, { recursive: true });
  for (const [file, text] of Object.entries(files)) writeFileSync(path.join(dir, file), text);
  return dir;
}
const manifest = (name: string, publicPath = 'auto') =>
  JSON.stringify({ name, metaData: { name, publicPath, remoteEntry: { name: 'remoteEntry.js', path: '' } } });

describe('deploy --from: a prebuilt remote (issue 35, bench deploy_s)', () => {
  it('copies the build aside without precompressed files or maps, and leaves the source as it was', async () => {
    const source = build('ok', {
      'mf-manifest.json': manifest('mail'),
      'remoteEntry.js': 'x',
      'remoteEntry.js.br': 'old',
      'remoteEntry.js.map': '{}',
    });
    const copy = await copyPrebuilt('mail', source);
    expect(readdirSync(copy).sort()).toEqual(['mf-manifest.json', 'remoteEntry.js']);
    expect(readdirSync(source)).toHaveLength(4);
    expect(await publicPathOf(copy)).toBe('auto');
    rmSync(copy, { recursive: true, force: true });
  });

  it('refuses a build of another remote, a folder that is no build, a build without its entry', async () => {
    await expect(copyPrebuilt('mail', build('wallet', { 'mf-manifest.json': manifest('wallet') }))).rejects.toThrow(
      /a build of wallet, not mail/,
    );
    await expect(copyPrebuilt('mail', build('empty', {}))).rejects.toThrow(/no mf-manifest.json/);
    await expect(copyPrebuilt('mail', build('no-entry', { 'mf-manifest.json': manifest('mail') }))).rejects.toThrow(
      /no remoteEntry.js/,
    );
  });

  it('reads the absolute publicPath a CDN build was made for', async () => {
    const dir = build('cdn', { 'mf-manifest.json': manifest('mail', 'https://cdn.example/mail/1.0.0-x/') });
    expect(await publicPathOf(dir)).toBe('https://cdn.example/mail/1.0.0-x/');
  });
});
