import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertSealed, IntegrityRefusedError, SRI_PATTERN, sealVersion, sriOf } from './integrity.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'cw-integrity-'));
const version = '0.1.0-abc';
const folder = path.join(dir, 'remotes', 'wallet', version);
const manifest = JSON.stringify({
  metaData: { publicPath: 'auto', remoteEntry: { name: 'remoteEntry.js', path: '' } },
});
const entryJs = 'var wallet = 1;';
let cdn: Server;
let cdnOrigin = '';
/** What the "CDN" serves as the entry: changed by a test after the deploy sealed it. */
let cdnEntry = entryJs;

beforeAll(async () => {
  mkdirSync(folder, { recursive: true });
  writeFileSync(path.join(folder, 'mf-manifest.json'), manifest);
  writeFileSync(path.join(folder, 'remoteEntry.js'), entryJs);
  cdn = createServer((request, response) => {
    response.end(request.url?.endsWith('.json') ? manifest : cdnEntry);
  });
  await new Promise<void>((resolve) => cdn.listen(0, '127.0.0.1', resolve));
  cdnOrigin = `http://127.0.0.1:${(cdn.address() as AddressInfo).port}`;
});
afterAll(() => {
  cdn.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('remote integrity at deploy (issue 35 item 1)', () => {
  it('hashes sha384 in the SRI form the browser checks', () => {
    const expected = createHash('sha384').update(entryJs).digest('base64');
    expect(sriOf(Buffer.from(entryJs))).toBe(`sha384-${expected}`);
    expect(SRI_PATTERN.test(sriOf(Buffer.from(entryJs)))).toBe(true);
  });

  it('seals a same-origin version from the served files: manifest and entry beside it', async () => {
    const sealed = await sealVersion(`/remotes/wallet/${version}/mf-manifest.json`, dir);
    expect(sealed).toEqual({
      manifest: `/remotes/wallet/${version}/mf-manifest.json`,
      manifestIntegrity: sriOf(Buffer.from(manifest)),
      entry: `/remotes/wallet/${version}/remoteEntry.js`,
      integrity: sriOf(Buffer.from(entryJs)),
    });
  });

  it('downloads a cross-origin version from where it is served and hashes what it got', async () => {
    cdnEntry = 'var wallet = 2;';
    const sealed = await sealVersion(`${cdnOrigin}/wallet/${version}/mf-manifest.json`, dir, [cdnOrigin]);
    expect(sealed.entry).toBe(`${cdnOrigin}/wallet/${version}/remoteEntry.js`);
    expect(sealed.integrity).toBe(sriOf(Buffer.from('var wallet = 2;')));
    cdnEntry = entryJs;
  });

  it('refuses an origin that is not pinned in REMOTE_ORIGINS', async () => {
    await expect(sealVersion(`${cdnOrigin}/wallet/${version}/mf-manifest.json`, dir, [])).rejects.toBeInstanceOf(
      IntegrityRefusedError,
    );
  });

  it('fails closed: a cross-origin entry without integrity is refused, a malformed digest too', () => {
    expect(() => assertSealed({ manifest: `${cdnOrigin}/wallet/x/mf-manifest.json` })).toThrow(/without integrity/);
    expect(() =>
      assertSealed({ manifest: '/remotes/wallet/x/mf-manifest.json', entry: `${cdnOrigin}/e.js`, integrity: 'x' }),
    ).toThrow(IntegrityRefusedError);
    expect(() => assertSealed({ manifest: '/remotes/wallet/x/mf-manifest.json', integrity: 'sha256-abc' })).toThrow(
      /not sha384/,
    );
    // Same-origin from before issue 35: accepted unsealed (the next deploy or rollback seals it).
    expect(() => assertSealed({ manifest: '/remotes/wallet/x/mf-manifest.json' })).not.toThrow();
  });

  it('refuses a manifest whose entry leaves its folder', async () => {
    writeFileSync(
      path.join(folder, 'mf-manifest.json'),
      JSON.stringify({ metaData: { remoteEntry: { name: 'remoteEntry.js', path: '../../x' } } }),
    );
    await expect(sealVersion(`/remotes/wallet/${version}/mf-manifest.json`, dir)).rejects.toThrow(/leaves its folder/);
    writeFileSync(path.join(folder, 'mf-manifest.json'), manifest);
  });
});
