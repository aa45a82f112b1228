import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCdnServer } from './cdn-server.ts';

const base = realpathSync(mkdtempSync(path.join(tmpdir(), 'cw-cdn-')));
const root = path.join(base, 'cdn');
let server: Server;
let url: string;

beforeAll(async () => {
  mkdirSync(path.join(root, 'wallet', '1.0.0'), { recursive: true });
  writeFileSync(path.join(root, 'wallet', '1.0.0', 'remoteEntry.js'), 'var wallet;');
  writeFileSync(path.join(base, 'secret.txt'), 'PG_PASSWORD=x');
  symlinkSync('../../../secret.txt', path.join(root, 'wallet', '1.0.0', 'leak.js'));
  symlinkSync(base, path.join(root, 'wallet', 'linked'));
  server = await startCdnServer('http://127.0.0.1:0', 'http://127.0.0.1', root);
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  // Without this, close waits for fetch's idle keep-alive sockets (seconds).
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  rmSync(base, { recursive: true, force: true });
});

describe('the demo CDN (review s8, finding 1: it followed symlinks out of its folder)', () => {
  it('serves its files, never a file whose real path leaves the folder, and survives a malformed path', async () => {
    const get = async (p: string) => {
      const res = await fetch(`${url}${p}`);
      return [p, res.status, (await res.text()).includes('PG_PASSWORD')];
    };
    expect(await get('/wallet/1.0.0/remoteEntry.js')).toEqual(['/wallet/1.0.0/remoteEntry.js', 200, false]);
    expect(await get('/wallet/1.0.0/leak.js')).toEqual(['/wallet/1.0.0/leak.js', 404, false]);
    expect(await get('/wallet/linked/secret.txt')).toEqual(['/wallet/linked/secret.txt', 404, false]);
    expect(await get('/wallet/%')).toEqual(['/wallet/%', 404, false]);
    expect(await get('/wallet/1.0.0/remoteEntry.js')).toEqual(['/wallet/1.0.0/remoteEntry.js', 200, false]);
  });
});
