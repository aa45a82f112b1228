import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { RETAINED_FILE, retainPrevious } from './retain-previous.ts';

const root = mkdtempSync(path.join(tmpdir(), 'cw-retain-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function folder(name: string, files: Record<string, string>): string {
  const dir = path.join(root, name);
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  }
  return dir;
}

describe('a host deploy keeps the previous version its open tabs still load from (issue 40 item 8)', () => {
  const HOUR = 3_600_000;

  it("carries the previous build's chunks (not its index.html) for the grace period, then drops them", async () => {
    const v1 = folder('v1', {
      'index.html': 'v1',
      '12.aaaa.js': 'old chunk',
      '12.aaaa.js.br': 'br',
      'static/a.css': 'x',
    });
    const v2 = folder('v2', { 'index.html': 'v2', '12.bbbb.js': 'new chunk', 'static/a.css': 'new' });
    const t0 = Date.UTC(2026, 10, 27);
    expect(await retainPrevious(v1, v2, t0, 24 * HOUR)).toBe(2);
    expect(readFileSync(path.join(v2, 'index.html'), 'utf8')).toBe('v2');
    expect(readFileSync(path.join(v2, '12.aaaa.js'), 'utf8')).toBe('old chunk');
    expect(readFileSync(path.join(v2, 'static/a.css'), 'utf8')).toBe('new');

    // The next deploy, 10 hours later: v1's chunks still within their grace, v2's own carried too.
    const v3 = folder('v3', { 'index.html': 'v3', '12.cccc.js': 'newest' });
    expect(await retainPrevious(v2, v3, t0 + 10 * HOUR, 24 * HOUR)).toBe(4);
    const retained = JSON.parse(readFileSync(path.join(v3, RETAINED_FILE), 'utf8')) as Record<string, number>;
    expect(retained['12.aaaa.js']).toBe(t0 + 24 * HOUR);
    expect(retained['12.bbbb.js']).toBe(t0 + 34 * HOUR);

    // After the grace period v1's files are gone; v3's own are carried into v4.
    const v4 = folder('v4', { 'index.html': 'v4' });
    await retainPrevious(v3, v4, t0 + 25 * HOUR, 24 * HOUR);
    expect(existsSync(path.join(v4, '12.aaaa.js'))).toBe(false);
    expect(existsSync(path.join(v4, '12.bbbb.js'))).toBe(true);
    expect(existsSync(path.join(v4, '12.cccc.js'))).toBe(true);
  });

  it('never carries a pre-rendered landing page: it names its own build and would outlive it', async () => {
    const v1 = folder('pre1', { 'index.html': 'v1', 'prerendered/zh-CN/login.html': 'v1 login', '3.aaaa.js': 'x' });
    const v2 = folder('pre2', { 'index.html': 'v2', 'prerendered/zh-CN/signIn.html': 'v2 sign-up' });
    expect(await retainPrevious(v1, v2)).toBe(1);
    expect(existsSync(path.join(v2, 'prerendered/zh-CN/login.html'))).toBe(false);
    expect(existsSync(path.join(v2, '3.aaaa.js'))).toBe(true);
  });

  it('a first deploy has nothing to carry', async () => {
    const first = folder('first', { 'index.html': 'x' });
    expect(await retainPrevious(path.join(root, 'missing'), first)).toBe(0);
  });
});
