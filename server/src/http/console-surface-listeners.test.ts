import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type App, buildApp } from '../app.ts';
import { createOfflineDb } from '../db/offline-db.ts';
import { createStaticDir, type StaticDirFixture } from '../test/static-dir.ts';
import { startConsoleListener } from './console-listener.ts';

// Issue 38 item 5: request targets as an attacker types them, sent raw on a socket (no client library
// normalises them), to both real listeners.

const CONSOLE_ORIGIN = 'http://localhost:9466';

function raw(port: number, method: string, target: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () =>
      socket.write(`${method} ${target} HTTP/1.1\r\nHost: localhost\r\nAccept: text/html\r\nConnection: close\r\n\r\n`),
    );
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (d) => {
      text += d;
    });
    socket.on('end', () => resolve({ status: Number(text.split(' ')[1]), text }));
    socket.on('error', reject);
  });
}

describe('console surface: raw request targets on both listeners', () => {
  let fixture: StaticDirFixture;
  let app: App;
  let appPort: number;
  let consolePort: number;
  let closeConsole: () => Promise<void>;
  beforeAll(async () => {
    fixture = await createStaticDir();
    await fixture.write('host/index.html', '<!doctype html><title>host</title>');
    await fixture.write('ops/index.html', '<!doctype html><title>ops console</title>');
    await fixture.writeRegistry({ remotes: {} });
    app = buildApp({
      db: createOfflineDb(),
      staticDir: fixture.dir,
      remoteOrigins: [],
      console: { origin: CONSOLE_ORIGIN },
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    appPort = (app.server.address() as AddressInfo).port;
    const listener = await startConsoleListener(app, { host: '127.0.0.1', port: 0 });
    consolePort = Number(new URL(listener.url).port);
    closeConsole = listener.close;
  });
  afterAll(async () => {
    await closeConsole?.();
    await app?.close();
    await fixture?.remove();
  });

  it('no spelling of /api/ops or /ops reaches the operator routes or pages on the app listener', async () => {
    const targets = [
      '//api/ops/session',
      '/api//ops/session',
      '/API/OPS/session',
      '/api/ops/session/',
      '/api/ops/./session',
      '/api/./ops/session',
      '/api/ops;x/session',
      '/api/ops/session;x',
      'http://localhost:9466/api/ops/session',
      '/api/ops%2fsession',
      '/api/ops/session%20',
      '/api/ops/session.',
      '/ops/../api/ops/session',
      '//ops/',
      '/OPS/',
      '/ops;x/',
      '/ops./',
      'http://localhost:9466/ops/',
      '*',
    ];
    for (const method of ['GET', 'HEAD', 'DELETE'])
      for (const target of targets) {
        const { text } = await raw(appPort, method, target);
        expect([method, target, text.includes('"operator"'), text.includes('ops console')]).toEqual([
          method,
          target,
          false,
          false,
        ]);
      }
  });

  it("the console listener never serves the customer app's page (%-encoded /ops: the SPA fallback reads the raw path)", async () => {
    // The hook judges the decoded path (/ops/x: a console page); the page fallback judged the raw one
    // (/%6fps/x: not /ops, so the host's index.html, on the console's origin). Both decode now, and
    // the console listener never falls back to the host's page at all.
    const { status, text } = await raw(consolePort, 'GET', '/%6fps/x');
    expect([status, text.includes('<title>host</title>')]).not.toEqual([200, true]);
  });
});
