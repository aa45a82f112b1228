import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { precompress } from './compress.ts';

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
    // A marker in the earlier .br proves it was copied, not compressed again.
    writeFileSync(path.join(earlier, 'a.js.br'), 'copied');
    const next = folder('v2', { 'a.js': 'same chunk '.repeat(50), 'b.js': 'new chunk' });
    await precompress(next, [earlier, path.join(root, 'missing')]);
    expect(readFileSync(path.join(next, 'a.js.br'), 'utf8')).toBe('copied');
    expect(brotliDecompressSync(readFileSync(path.join(next, 'b.js.br'))).toString()).toBe('new chunk');
    expect(gunzipSync(readFileSync(path.join(next, 'b.js.gz'))).toString()).toBe('new chunk');
  });
});
