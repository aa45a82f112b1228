import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../app.ts';
import { buildApp } from '../app.ts';
import { createOfflineDb } from '../db/offline-db.ts';
import { createStaticDir, type StaticDirFixture } from '../test/static-dir.ts';
import { wantsSpaFallback } from './static.ts';

const NO_CACHE = 'no-cache';
const IMMUTABLE = 'public, max-age=31536000, immutable';
const html = { accept: 'text/html,application/xhtml+xml' };

describe('static serving', () => {
  let fixture: StaticDirFixture;
  let app: App;

  beforeAll(async () => {
    fixture = await createStaticDir();
    await fixture.write('host/index.html', '<!doctype html><title>host</title>');
    await fixture.write('host/assets/main.3f2a1b.js', 'console.log("main")');
    await fixture.write('host/assets/main.3f2a1b.js.gz', gzipSync('console.log("main")'));
    await fixture.write('host/manifest.webmanifest', '{"name":"CW Wallet"}');
    await fixture.write('host/prerendered/zh-CN/signIn.html', '<!doctype html><title>pre-rendered sign-up</title>');
    await fixture.write('host/icons/icon-192.png', 'png');
    await fixture.write('ops/index.html', '<!doctype html><title>ops console</title>');
    await fixture.write('ops/main.0a1b2c3d4e.js', 'console.log("ops")');
    await fixture.write('remotes/wallet/1.2.0/mf-manifest.json', '{"name":"wallet"}');
    await fixture.write('remotes/wallet/1.2.0/remoteEntry.js', 'var wallet;');
    await fixture.write('remotes/wallet/1.2.0/static/js/42.a1b2c3.js', 'chunk();');
    // Review s8, finding 1: links out of the remotes folder (a file, a precompressed sibling, a folder).
    writeFileSync(path.join(fixture.dir, 'secret.txt'), 'PG_PASSWORD=x');
    mkdirSync(path.join(fixture.dir, 'outside'));
    writeFileSync(path.join(fixture.dir, 'outside', 'x.js'), 'outside();');
    symlinkSync('../../../secret.txt', path.join(fixture.dir, 'remotes/wallet/1.2.0/leak.js'));
    symlinkSync(path.join(fixture.dir, 'secret.txt'), path.join(fixture.dir, 'remotes/wallet/1.2.0/remoteEntry.js.br'));
    symlinkSync(path.join(fixture.dir, 'outside'), path.join(fixture.dir, 'remotes/wallet/1.2.0/linked'));
    await fixture.writeRegistry({
      remotes: {
        wallet: { version: '1.2.0', manifest: '/remotes/wallet/1.2.0/mf-manifest.json', routes: ['/coinTopup'] },
      },
    });
    app = buildApp({ db: createOfflineDb(), staticDir: fixture.dir });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await fixture.remove();
  });

  it('serves host/index.html at / with no-cache', async () => {
    const res = await app.inject({ method: 'GET', url: '/', headers: html });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<title>host</title>');
    expect(res.headers['cache-control']).toBe(NO_CACHE);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
  });

  it('serves the web app manifest and icons, revalidated (their names carry no content hash)', async () => {
    const manifest = await app.inject({ method: 'GET', url: '/manifest.webmanifest' });
    expect(manifest.statusCode).toBe(200);
    expect(manifest.headers['content-type']).toMatch(/^application\/manifest\+json/);
    expect(manifest.headers['cache-control']).toBe(NO_CACHE);
    const icon = await app.inject({ method: 'GET', url: '/icons/icon-192.png' });
    expect([icon.statusCode, icon.headers['cache-control']]).toEqual([200, NO_CACHE]);
  });

  it('falls back to index.html for client-side routes', async () => {
    for (const url of ['/coinTopup', '/coinTopup/send/affirm', '/signIn?ref=abc']) {
      const res = await app.inject({ method: 'GET', url, headers: html });
      expect([url, res.statusCode]).toEqual([url, 200]);
      expect(res.body).toContain('<title>host</title>');
      expect(res.headers['cache-control']).toBe(NO_CACHE);
    }
  });

  it('serves a pre-rendered landing page to a phone in its language, index.html to anyone else', async () => {
    const phone = { ...html, 'user-agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) Mobile/15E148' };
    const desktop = { ...html, 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/140.0.0.0 Safari/537.36' };
    const page = async (url: string, headers: Record<string, string>) => {
      const res = await app.inject({ method: 'GET', url, headers });
      expect([url, res.statusCode, res.headers['cache-control']]).toEqual([url, 200, NO_CACHE]);
      expect(res.headers.vary).toMatch(/^Accept-Language, Cookie, User-Agent\b/);
      return /<title>(.*)<\/title>/.exec(res.body)?.[1];
    };
    expect(await page('/signIn', { ...phone, 'accept-language': 'zh-CN,zh;q=0.9' })).toBe('pre-rendered sign-up');
    expect(await page('/signIn?invite=AB12', phone)).toBe('pre-rendered sign-up');
    // The app would start in another language, or in the desktop frame: the plain page.
    expect(await page('/signIn', { ...phone, 'accept-language': 'es-ES,es' })).toBe('host');
    expect(await page('/signIn', { ...phone, 'accept-language': 'zh-CN', cookie: 'lang=en' })).toBe('host');
    expect(await page('/signIn', { ...desktop, 'accept-language': 'zh-CN' })).toBe('host');
    // No page built for that screen.
    expect(await page('/coinTopup', phone)).toBe('host');
  });

  it('serves the user app, not the operator console, at /ops-like user routes; the console is not here', async () => {
    // The console has its own listener and origin (console-surface.test.ts): the app port answers 404.
    expect((await app.inject({ method: 'GET', url: '/ops/', headers: html })).statusCode).toBe(404);
    expect((await app.inject({ method: 'GET', url: '/operations', headers: html })).body).toContain(
      '<title>host</title>',
    );
  });

  it('does not fall back for files, non-HTML requests, or reserved prefixes', async () => {
    const plain404 = async (url: string, headers: Record<string, string> = html) => {
      const res = await app.inject({ method: 'GET', url, headers });
      expect([url, res.statusCode, res.headers['content-type']]).toEqual([url, 404, 'text/plain; charset=utf-8']);
    };
    await plain404('/missing.js');
    await plain404('/coinTopup', { accept: 'application/json' });
    await plain404('/metrics/x');
    await plain404('/dev/x');
    await plain404('/remotes/nope/1.0.0/remoteEntry.js');
    await plain404('/remotes/wallet/1.2.0/static/js/missing.js');
    const api = await app.inject({ method: 'GET', url: '/api/nope', headers: html });
    expect(api.statusCode).toBe(404);
    expect(api.json()).toMatchObject({ code: 'NOT_FOUND' });
    const post = await app.inject({ method: 'POST', url: '/coinTopup', headers: html });
    expect(post.statusCode).toBe(404);
  });

  it('never serves a file whose real path leaves the remotes folder (review s8, finding 1)', async () => {
    for (const [url, headers] of [
      ['/remotes/wallet/1.2.0/leak.js', {}],
      ['/remotes/wallet/1.2.0/linked/x.js', {}],
      ['/remotes/wallet/1.2.0/remoteEntry.js', { 'accept-encoding': 'br' }],
    ] as const) {
      const res = await app.inject({ method: 'GET', url, headers });
      expect([url, res.statusCode, res.body.includes('PG_PASSWORD') || res.body.includes('outside')]).toEqual([
        url,
        404,
        false,
      ]);
    }
    const entry = await app.inject({ method: 'GET', url: '/remotes/wallet/1.2.0/remoteEntry.js' });
    expect([entry.statusCode, entry.body]).toEqual([200, 'var wallet;']);
  });

  it('caches hashed host assets forever and serves precompressed siblings', async () => {
    const plain = await app.inject({ method: 'GET', url: '/assets/main.3f2a1b.js' });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['cache-control']).toBe(IMMUTABLE);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe('console.log("main")');

    const gz = await app.inject({
      method: 'GET',
      url: '/assets/main.3f2a1b.js',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(gz.statusCode).toBe(200);
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers['content-type']).toMatch(/javascript/);
    expect(gz.headers['cache-control']).toBe(IMMUTABLE);
    expect(gz.headers.vary).toMatch(/accept-encoding/i);
  });

  it('serves remotes: entry points no-cache, chunks immutable', async () => {
    const base = '/remotes/wallet/1.2.0';
    const manifest = await app.inject({ method: 'GET', url: `${base}/mf-manifest.json` });
    expect(manifest.statusCode).toBe(200);
    expect(manifest.headers['cache-control']).toBe(NO_CACHE);
    expect(manifest.headers['access-control-allow-origin']).toBe('*');
    expect(manifest.headers['cross-origin-resource-policy']).toBe('cross-origin');
    const entry = await app.inject({ method: 'GET', url: `${base}/remoteEntry.js` });
    expect(entry.headers['cache-control']).toBe(NO_CACHE);
    const chunk = await app.inject({ method: 'GET', url: `${base}/static/js/42.a1b2c3.js` });
    expect(chunk.statusCode).toBe(200);
    expect(chunk.headers['cache-control']).toBe(IMMUTABLE);
  });

  it('reads remotes.json from disk on every request', async () => {
    const first = await app.inject({ method: 'GET', url: '/remotes.json' });
    expect(first.statusCode).toBe(200);
    expect(first.headers['cache-control']).toBe(NO_CACHE);
    expect(first.json().remotes.wallet.version).toBe('1.2.0');
    await fixture.writeRegistry({
      remotes: { wallet: { version: '1.3.0', manifest: '/remotes/wallet/1.3.0/mf-manifest.json', routes: [] } },
    });
    const second = await app.inject({ method: 'GET', url: '/remotes.json' });
    expect(second.json().remotes.wallet.version).toBe('1.3.0');
  });
});

describe('wantsSpaFallback', () => {
  const get = (url: string, accept = 'text/html') => ({ method: 'GET', url, headers: { accept } });
  it('matches page navigations only', () => {
    expect(wantsSpaFallback(get('/convert/history'))).toBe(true);
    expect(wantsSpaFallback(get('/'))).toBe(true);
    expect(wantsSpaFallback(get('/a.b/c'))).toBe(true);
    expect(wantsSpaFallback(get('/favicon.ico'))).toBe(false);
    expect(wantsSpaFallback(get('/api'))).toBe(false);
    expect(wantsSpaFallback(get('/apis'))).toBe(true);
    expect(wantsSpaFallback(get('/remotes/x'))).toBe(false);
    expect(wantsSpaFallback(get('/x', '*/*'))).toBe(false);
    expect(wantsSpaFallback({ method: 'DELETE', url: '/x', headers: { accept: 'text/html' } })).toBe(false);
  });
});
