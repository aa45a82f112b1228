import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, constants, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { brotliQuality, precompress } from './compress.ts';

const root = mkdtempSync(path.join(tmpdir(), 'cw-compress-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function folder(name: string, files: Record<string, string>): string {
  const dir = path.join(root, name);
  mkdirSync(dir, { recursive: true });
  for (const [file, text] of Object.entries(files)) writeFileSync(path.join(dir, file), text);
  return dir;
}

describe('precompress (deploy_s: unchanged chunks keep the live version compressed files)', () => {
  it('copies the siblings of byte-identical files from the earlier folder, compresses the others', async () => {
    const earlier = folder('v1', { 'a.js': 'same chunk '.repeat(50), 'b.js': 'old chunk' });
    await precompress(earlier);
    // Brotli at quality 1 decodes to the same bytes but differs from quality 11: proves it was copied.
    const marker = brotliCompressSync('same chunk '.repeat(50), { params: { [constants.BROTLI_PARAM_QUALITY]: 1 } });
    writeFileSync(path.join(earlier, 'a.js.br'), marker);
    const next = folder('v2', { 'a.js': 'same chunk '.repeat(50), 'b.js': 'new chunk' });
    await precompress(next, [earlier, path.join(root, 'missing')]);
    expect(readFileSync(path.join(next, 'a.js.br')).equals(marker)).toBe(true);
    expect(brotliDecompressSync(readFileSync(path.join(next, 'b.js.br'))).toString()).toBe('new chunk');
    expect(gunzipSync(readFileSync(path.join(next, 'b.js.gz'))).toString()).toBe('new chunk');
  });

  it('compresses afresh when an earlier sibling does not decode to the source (review s8, finding 6)', async () => {
    const body = 'body { color: black } '.repeat(20);
    const earlier = folder('t1', { 'a.css': body, 'b.css': body, 'c.css': body });
    await precompress(earlier);
    writeFileSync(path.join(earlier, 'a.css.br'), brotliCompressSync('body::after { content: "0xEvil" }'));
    writeFileSync(path.join(earlier, 'b.css.gz'), gzipSync('body::after { content: "0xEvil" }'));
    writeFileSync(path.join(earlier, 'c.css.br'), 'not brotli at all');
    const next = folder('t2', { 'a.css': body, 'b.css': body, 'c.css': body });
    await precompress(next, [earlier]);
    for (const file of ['a.css', 'b.css', 'c.css']) {
      const br = brotliDecompressSync(readFileSync(path.join(next, `${file}.br`))).toString();
      const gz = gunzipSync(readFileSync(path.join(next, `${file}.gz`))).toString();
      expect([file, br === body, gz === body]).toEqual([file, true, true]);
    }
  });
});

describe('brotliQuality (DEPLOY_BROTLI_QUALITY: the e2e start packs less tightly)', () => {
  it('is 11 unless set, takes 0 to 11, refuses anything else', () => {
    expect(brotliQuality({})).toBe(11);
    expect(brotliQuality({ DEPLOY_BROTLI_QUALITY: ' 5 ' })).toBe(5);
    expect(brotliQuality({ DEPLOY_BROTLI_QUALITY: '0' })).toBe(0);
    for (const bad of ['12', '-1', '4.5', 'fast']) {
      expect(() => brotliQuality({ DEPLOY_BROTLI_QUALITY: bad })).toThrow(/DEPLOY_BROTLI_QUALITY/);
    }
  });
});
