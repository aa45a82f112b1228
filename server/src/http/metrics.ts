import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Histogram, Registry } from 'prom-client';

/** A registry with the default Node.js process metrics. One per process in production. */
export function createMetricsRegistry(): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return registry;
}

/** Records `http_request_duration_seconds{method,route,status_code}` and serves `GET /metrics`. */
export function registerMetrics(app: FastifyInstance, registry: Registry): void {
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

  app.register(async (scope) => {
    scope.get('/metrics', { schema: { hide: true } }, async (_request, reply) => {
      reply.header('content-type', registry.contentType).header('cache-control', 'no-store');
      return registry.metrics();
    });
  });
}
