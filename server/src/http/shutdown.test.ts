import net, { type AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { createOfflineDb } from '../db/offline-db.ts';

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve: () => void = () => undefined;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

describe('graceful close', () => {
  it('finishes in-flight requests and answers late ones with SERVICE_UNAVAILABLE', async () => {
    const app = buildApp({ db: createOfflineDb() });
    const started = deferred();
    const release = deferred();
    app.get('/api/test/slow', async () => {
      started.resolve();
      await release.promise;
      return { done: true };
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = app.server.address() as AddressInfo;

    // One keep-alive connection: a slow request, then (while draining) a pipelined late one.
    const socket = net.connect(port, '127.0.0.1');
    let received = '';
    socket.on('data', (chunk) => {
      received += chunk.toString();
    });
    const ended = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    socket.write('GET /api/test/slow HTTP/1.1\r\nHost: localhost\r\n\r\n');
    await started.promise;

    const closed = app.close();
    await new Promise((r) => setTimeout(r, 50));
    socket.write('GET /api/health HTTP/1.1\r\nHost: localhost\r\n\r\n');
    release.resolve();
    await closed;
    await ended;

    const responses = received.split(/(?=HTTP\/1\.1 )/);
    expect(responses[0]).toMatch(/^HTTP\/1\.1 200/);
    expect(responses[0]).toContain('{"done":true}');
    expect(responses[1]).toMatch(/^HTTP\/1\.1 503/);
    expect(responses[1]).toContain('{"code":"SERVICE_UNAVAILABLE","message":"Server is shutting down"}');
  });
});
