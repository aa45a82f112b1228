import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type App, buildApp } from '../app.ts';
import { ConfigError } from '../config.ts';
import { createOfflineDb } from '../db/offline-db.ts';
import { createStaticDir, type StaticDirFixture } from '../test/static-dir.ts';
import { consoleConfigFromEnv, startConsoleListener } from './console-listener.ts';
import { isForeignToConsole } from './console-surface.ts';

// Issue 38 item 5: the operator console on its own listener and origin, /api/ops only there and only
// to the console's Origin; real listeners (the listener a request came in on is the whole point).

const CONSOLE_ORIGIN = 'http://localhost:9466';
const html = { accept: 'text/html' };

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A raw HTTP request (fetch would not send Origin / Sec-Fetch-Site as given, nor keep `%61` as typed). */
function send(base: string, path: string, options: { method?: string; headers?: Record<string, string> } = {}) {
  const url = new URL(base);
  return new Promise<Answer>((resolve, reject) => {
    const req = httpRequest(
      { host: url.hostname, port: url.port, path, method: options.method ?? 'GET', headers: options.headers ?? {} },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => {
          body += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('the operator console on its own listener', () => {
  let fixture: StaticDirFixture;
  let app: App;
  let appBase: string;
  let consoleBase: string;
  let closeConsole: () => Promise<void>;

  beforeAll(async () => {
    fixture = await createStaticDir();
    await fixture.write('host/index.html', '<!doctype html><title>host</title>');
    await fixture.write('ops/index.html', '<!doctype html><title>ops console</title>');
    await fixture.write('ops/main.0a1b2c3d4e.js', 'console.log("ops")');
    // A remote on a CDN: the user app's script-src names its origin; the console's must not.
    await fixture.writeRegistry({
      remotes: {
        wallet: { version: '1.2.0', manifest: 'https://cdn.example.com/wallet/1.2.0/mf-manifest.json', routes: [] },
      },
    });
    app = buildApp({
      db: createOfflineDb(),
      staticDir: fixture.dir,
      remoteOrigins: ['https://cdn.example.com'],
      console: { origin: CONSOLE_ORIGIN },
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    appBase = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    const listener = await startConsoleListener(app, { host: '127.0.0.1', port: 0 });
    consoleBase = listener.url;
    closeConsole = listener.close;
  });
  afterAll(async () => {
    await closeConsole?.();
    await app?.close();
    await fixture?.remove();
  });

  it("serves the console's pages and files with script-src 'self' and no remote origin", async () => {
    for (const path of ['/ops', '/ops/', '/ops/announcements']) {
      const res = await send(consoleBase, path, { headers: html });
      expect([path, res.status]).toEqual([path, 200]);
      expect(res.body).toContain('<title>ops console</title>');
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toContain("script-src 'self';");
      expect(csp).toContain("connect-src 'self';");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toContain('cdn.example.com');
      expect(csp).not.toContain('unsafe-inline');
      expect(res.headers['x-frame-options']).toBe('DENY');
    }
    const script = await send(consoleBase, '/ops/main.0a1b2c3d4e.js');
    expect([script.status, script.headers['x-robots-tag']]).toEqual([200, 'noindex, nofollow']);
    const root = await send(consoleBase, '/', { headers: html });
    expect([root.status, root.headers.location]).toEqual([302, '/ops/']);
  });

  it('answers /api/ops on the console listener (no operator signed in here)', async () => {
    const res = await send(consoleBase, '/api/ops/session', {
      headers: { origin: CONSOLE_ORIGIN, 'sec-fetch-site': 'same-origin' },
    });
    expect([res.status, JSON.parse(res.body)]).toEqual([200, { operator: null }]);
    // The event stream the console opens (same-origin GET, no Origin header).
    const stream = await send(consoleBase, '/api/ops/chat/events', { headers: { 'sec-fetch-site': 'same-origin' } });
    expect(stream.status).toBe(401);
  });

  it('serves nothing else on the console listener: no user app, no user API, no remotes', async () => {
    for (const path of ['/api/health', '/api/me', '/remotes.json', '/coinTopup', '/index.html']) {
      const res = await send(consoleBase, path, { headers: html });
      expect([path, res.status]).toEqual([path, 404]);
    }
  });

  it('the app listener serves neither the console nor /api/ops, however the path is spelled', async () => {
    const paths = [
      '/ops',
      '/ops/',
      '/ops/announcements',
      '/ops/main.0a1b2c3d4e.js',
      '/%6fps/',
      '/%6Fps/main.0a1b2c3d4e.js',
      '/api/ops/session',
      '/%61pi/ops/session',
      '/api/%6fps/session',
      '/api/ops/%73ession',
      '/%61%70%69/%6f%70%73/session',
      '/api/ops/chat/events',
      '/api/ops/sbom',
    ];
    for (const path of paths) {
      for (const method of ['GET', 'POST', 'DELETE']) {
        const res = await send(appBase, path, {
          method,
          headers: { ...html, origin: appBase, 'sec-fetch-site': 'same-origin' },
        });
        expect([method, path, res.status]).toEqual([method, path, 404]);
      }
    }
    // The user app itself is still there, with its own (remote-allowing) policy.
    const host = await send(appBase, '/', { headers: html });
    expect(host.status).toBe(200);
    expect(String(host.headers['content-security-policy'])).toContain('cdn.example.com');
  });

  it('refuses /api/ops from another origin on the console listener, encoded paths included', async () => {
    const foreign: Record<string, string>[] = [
      { origin: appBase },
      { origin: 'http://127.0.0.1:9466' },
      { origin: 'https://ops.example.com.evil.test' },
      { origin: 'null' },
      { 'sec-fetch-site': 'same-site' },
      { 'sec-fetch-site': 'cross-site' },
      { origin: CONSOLE_ORIGIN, 'sec-fetch-site': 'cross-site' },
    ];
    const paths = ['/api/ops/session', '/%61pi/ops/session', '/api/%6fps/session', '/%61%70%69/%6f%70%73/%73ession'];
    for (const headers of foreign) {
      for (const path of paths) {
        for (const method of ['GET', 'DELETE']) {
          const res = await send(consoleBase, path, { method, headers });
          expect([method, path, headers, res.status]).toEqual([method, path, headers, 403]);
          expect(JSON.parse(res.body).code).toBe('CROSS_SITE_REQUEST');
        }
      }
    }
    // A state change with neither Origin nor Sec-Fetch-Site (an old browser) is judged by its Referer.
    const referred = await send(consoleBase, '/api/ops/session', {
      method: 'DELETE',
      headers: { referer: `${appBase}/profile` },
    });
    expect(referred.status).toBe(403);
    // The console's own requests, spelled either way, reach the route (401: no cookie here).
    for (const path of paths) {
      const own = await send(consoleBase, path, {
        method: 'DELETE',
        headers: { origin: CONSOLE_ORIGIN, 'sec-fetch-site': 'same-origin' },
      });
      expect([path, own.status]).toEqual([path, 401]);
    }
  });
});

describe('isForeignToConsole', () => {
  const check = (method: string, headers: Record<string, string>) =>
    isForeignToConsole({ method, headers }, CONSOLE_ORIGIN);
  it('lets the console, typed-in GETs and clients without browser headers through', () => {
    expect(check('POST', { origin: CONSOLE_ORIGIN, 'sec-fetch-site': 'same-origin' })).toBe(false);
    expect(check('POST', { origin: 'HTTP://LOCALHOST:9466' })).toBe(false);
    expect(check('GET', { 'sec-fetch-site': 'same-origin' })).toBe(false);
    expect(check('GET', { 'sec-fetch-site': 'none' })).toBe(false);
    expect(check('POST', {})).toBe(false);
    expect(check('POST', { referer: `${CONSOLE_ORIGIN}/ops/` })).toBe(false);
  });
  it('refuses other origins and sites', () => {
    expect(check('POST', { 'sec-fetch-site': 'none' })).toBe(true);
    expect(check('GET', { origin: 'http://localhost:9467' })).toBe(true);
    expect(check('GET', { origin: 'not a url' })).toBe(true);
    expect(check('POST', { referer: 'http://127.0.0.1:8080/' })).toBe(true);
    expect(check('GET', { 'sec-fetch-site': 'same-site' })).toBe(true);
  });
});

describe('consoleConfigFromEnv', () => {
  const dev = { nodeEnv: 'development', publicOrigin: 'http://127.0.0.1:8080' };
  it('defaults to 127.0.0.1:9466, opened as localhost (another cookie host than the app)', () => {
    expect(consoleConfigFromEnv({}, dev)).toEqual({
      listener: { host: '127.0.0.1', port: 9466 },
      origin: 'http://localhost:9466',
    });
    expect(consoleConfigFromEnv({}, { ...dev, publicOrigin: 'http://localhost:8080' }).origin).toBe(
      'http://127.0.0.1:9466',
    );
    expect(consoleConfigFromEnv({ OPS_PORT: 'off' }, dev).listener).toBeNull();
  });
  it('refuses a console on the app host, a bad port or origin, and production without an https origin', () => {
    const refused = (env: NodeJS.ProcessEnv, app = dev) => {
      try {
        consoleConfigFromEnv(env, app);
      } catch (err) {
        return err instanceof ConfigError ? err.message : String(err);
      }
      return 'accepted';
    };
    expect(refused({ OPS_ORIGIN: 'http://127.0.0.1:9466' })).toContain('another host name');
    expect(refused({ OPS_PORT: '0' })).toContain('OPS_PORT');
    expect(refused({ OPS_ORIGIN: 'https://ops.example.com/ops' })).toContain('OPS_ORIGIN must be an origin');
    const prod = { nodeEnv: 'production', publicOrigin: 'https://app.example.com' };
    expect(refused({}, prod)).toContain('production');
    expect(refused({ OPS_ORIGIN: 'http://ops.example.com' }, prod)).toContain('production');
    expect(refused({ OPS_ORIGIN: 'https://ops.example.com' }, prod)).toBe('accepted');
    expect(refused({ OPS_ORIGIN: 'https://app.example.com:8443' }, prod)).toContain('another host name');
  });
});
