import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
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

  it('refuses a build holding a symlink (review s8, finding 1: /remotes/ would serve its target), naming it', async () => {
    writeFileSync(path.join(root, 'secret.txt'), 'PG_PASSWORD=x');
    const base = { 'mf-manifest.json': manifest('mail'), 'remoteEntry.js': 'x' };
    const leaky = build('leaky', base);
    symlinkSync('../secret.txt', path.join(leaky, 'leak.js'));
    await expect(copyPrebuilt('mail', leaky)).rejects.toThrow(/^leak\.js in .* is not a regular file/);
    const nested = build('nested', base);
    mkdirSync(path.join(nested, 'static'));
    symlinkSync(root, path.join(nested, 'static', 'js'));
    await expect(copyPrebuilt('mail', nested)).rejects.toThrow(/^static\/js in .* is not a regular file/);
    // Even a link named like a file the copy skips, and nothing is left behind in the temp folder.
    const before = readdirSync(tmpdir()).filter((f) => f.startsWith('cw-prebuilt-mail-')).length;
    const mapped = build('mapped', base);
    symlinkSync('/etc/hostname', path.join(mapped, 'x.js.map'));
    await expect(copyPrebuilt('mail', mapped)).rejects.toThrow(/^x\.js\.map in .* is not a regular file/);
    expect(readdirSync(tmpdir()).filter((f) => f.startsWith('cw-prebuilt-mail-'))).toHaveLength(before);
  });

  it('reads the absolute publicPath a CDN build was made for', async () => {
    const dir = build('cdn', { 'mf-manifest.json': manifest('mail', 'https://cdn.example/mail/1.0.0-x/') });
    expect(await publicPathOf(dir)).toBe('https://cdn.example/mail/1.0.0-x/');
  });
});
