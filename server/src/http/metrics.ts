import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Histogram, Registry } from 'prom-client';
import { AppError } from '../errors/app-error.ts';

/** A registry with the default Node.js process metrics. One per process in production. */
export function createMetricsRegistry(): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return registry;
}

/**
 * Records `http_request_duration_seconds{method,route,status_code}`. The app port serves `GET /metrics`
 * only when `token` is given, to `Authorization: Bearer <token>`; otherwise metrics are read from
 * `startMetricsServer` (loopback by default, see metrics-config.ts).
 */
export function registerMetrics(
  app: FastifyInstance,
  registry: Registry,
  options: { token?: string | null } = {},
): void {
  const duration =
    (registry.getSingleMetric('http_request_duration_seconds') as
      | Histogram<'method' | 'route' | 'status_code'>
      | undefined) ??
    new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP request duration in seconds, by route template and status code',
      labelNames: ['method', 'route', 'status_code'] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    });

  app.addHook('onResponse', async (request, reply) => {
    duration.observe(
      {
        method: request.method,
        // The route template keeps the label set small; unmatched requests share one label.
        route: request.routeOptions.url ?? 'unmatched',
        status_code: String(reply.statusCode),
      },
      reply.elapsedTime / 1000,
    );
  });

  const token = options.token;
  if (!token) return;
  const expected = digest(token);
  app.register(async (scope) => {
    scope.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
      const given = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1] ?? '';
      // Compared as digests: constant time, whatever the lengths.
      if (!timingSafeEqual(digest(given), expected)) {
        reply.header('www-authenticate', 'Bearer');
        throw new AppError('UNAUTHENTICATED', 'Metrics need the token');
      }
      reply.header('content-type', registry.contentType).header('cache-control', 'no-store');
      return registry.metrics();
    });
  });
}

const digest = (text: string) => createHash('sha256').update(text).digest();

/** `GET /metrics` on its own listener (nothing else is served there). Resolves once listening. */
export async function startMetricsServer(
  registry: Registry,
  listen: { host: string; port: number },
): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer((request, response) => {
    if (request.method !== 'GET' || request.url !== '/metrics') {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    registry.metrics().then(
      (body) =>
        response.writeHead(200, { 'content-type': registry.contentType, 'cache-control': 'no-store' }).end(body),
      () => response.writeHead(500, { 'content-type': 'text/plain' }).end('metrics failed'),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(listen.port, listen.host, () => resolve());
  });
  const { address, port } = server.address() as AddressInfo;
  const host = address.includes(':') ? `[${address}]` : address;
  return {
    url: `http://${host}:${port}/metrics`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
