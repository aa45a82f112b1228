import { describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { createOfflineDb } from '../db/offline-db.ts';

describe('GET /metrics', () => {
  it('exposes default metrics and the request duration histogram by route and status', async () => {
    const app = buildApp({ db: createOfflineDb() });
    await app.inject({ method: 'GET', url: '/api/health' });
    await app.inject({ method: 'GET', url: '/api/me/settings' });
    await app.inject({ method: 'GET', url: '/api/nope' });

    const res = await app.inject({ method: 'GET', url: '/metrics' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(res.body).toContain('# TYPE http_request_duration_seconds histogram');
    expect(res.body).toMatch(
      /http_request_duration_seconds_count\{method="GET",route="\/api\/health",status_code="200"\} 1/,
    );
    expect(res.body).toMatch(
      /http_request_duration_seconds_bucket\{le="\+Inf",method="GET",route="\/api\/me\/settings",status_code="401"\} 1/,
    );
    expect(res.body).toMatch(/route="unmatched",status_code="404"/);
    expect(res.body).toContain('process_cpu_user_seconds_total');
    expect(res.body).toContain('nodejs_eventloop_lag_seconds');
  });
});
