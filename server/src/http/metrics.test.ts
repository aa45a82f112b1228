import { describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { ConfigError } from '../config.ts';
import { createOfflineDb } from '../db/offline-db.ts';
import { createMetricsRegistry, startMetricsServer } from './metrics.ts';
import { metricsConfigFromEnv } from './metrics-config.ts';

const TOKEN = 'metrics-token-0123456789-abcdefghijkl';

describe('metrics', () => {
  it('records the request duration by route and status, served on a loopback listener of its own', async () => {
    const registry = createMetricsRegistry();
    const app = buildApp({ db: createOfflineDb(), metrics: registry });
    await app.inject({ method: 'GET', url: '/api/health' });
    await app.inject({ method: 'GET', url: '/api/me/settings' });
    await app.inject({ method: 'GET', url: '/api/nope' });
    // Not on the app port (it was public there).
    expect((await app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(404);

    const server = await startMetricsServer(registry, { host: '127.0.0.1', port: 0 });
    try {
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
      const res = await fetch(server.url);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
      const body = await res.text();
      expect(body).toContain('# TYPE http_request_duration_seconds histogram');
      expect(body).toMatch(
        /http_request_duration_seconds_count\{method="GET",route="\/api\/health",status_code="200"\} 1/,
      );
      expect(body).toMatch(
        /http_request_duration_seconds_bucket\{le="\+Inf",method="GET",route="\/api\/me\/settings",status_code="401"\} 1/,
      );
      expect(body).toMatch(/route="unmatched",status_code="404"/);
      expect(body).toContain('process_cpu_user_seconds_total');
      expect((await fetch(server.url.replace('/metrics', '/other'))).status).toBe(404);
    } finally {
      await server.close();
      await app.close();
    }
  });

  it('serves the app port only with the bearer token when METRICS_TOKEN is set', async () => {
    const app = buildApp({ db: createOfflineDb(), metricsToken: TOKEN });
    try {
      const none = await app.inject({ method: 'GET', url: '/metrics' });
      expect(none.statusCode).toBe(401);
      expect(none.json()).toMatchObject({ code: 'UNAUTHENTICATED' });
      expect(none.headers['www-authenticate']).toBe('Bearer');
      const wrong = await app.inject({
        method: 'GET',
        url: '/metrics',
        headers: { authorization: `Bearer ${TOKEN}x` },
      });
      expect(wrong.statusCode).toBe(401);
      const right = await app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
      expect(right.statusCode).toBe(200);
      expect(right.body).toContain('nodejs_eventloop_lag_seconds');
    } finally {
      await app.close();
    }
  });

  it('reads its settings: loopback 9464 by default, off, and refuses a short token or a bad port', () => {
    expect(metricsConfigFromEnv({})).toEqual({ listener: { host: '127.0.0.1', port: 9464 }, token: null });
    expect(metricsConfigFromEnv({ METRICS_PORT: 'off', METRICS_TOKEN: TOKEN })).toEqual({
      listener: null,
      token: TOKEN,
    });
    expect(() => metricsConfigFromEnv({ METRICS_TOKEN: 'short' })).toThrow(ConfigError);
    expect(() => metricsConfigFromEnv({ METRICS_PORT: '70000' })).toThrow(/METRICS_PORT/);
    expect(() => metricsConfigFromEnv({ METRICS_HOST: 'example.com' })).toThrow(/METRICS_HOST/);
  });
});
