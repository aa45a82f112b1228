import { describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { createOfflineDb } from '../db/offline-db.ts';
import { isCrossSiteRequest } from './csrf.ts';

const req = (method: string, url: string, headers: Record<string, string> = {}, host = 'wallet.example') => ({
  method,
  url,
  headers,
  host,
});

describe('isCrossSiteRequest', () => {
  it('refuses cross-site and same-site state changes under /api', () => {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      expect(isCrossSiteRequest(req(method, '/api/x', { 'sec-fetch-site': 'cross-site' }))).toBe(true);
      expect(isCrossSiteRequest(req(method, '/api/x', { 'sec-fetch-site': 'same-site' }))).toBe(true);
      expect(isCrossSiteRequest(req(method, '/api/x', { 'sec-fetch-site': 'same-origin' }))).toBe(false);
      expect(isCrossSiteRequest(req(method, '/api/x', { 'sec-fetch-site': 'none' }))).toBe(false);
    }
  });

  it('ignores safe methods and paths outside /api', () => {
    expect(isCrossSiteRequest(req('GET', '/api/x', { 'sec-fetch-site': 'cross-site' }))).toBe(false);
    expect(isCrossSiteRequest(req('HEAD', '/api/x', { 'sec-fetch-site': 'cross-site' }))).toBe(false);
    expect(isCrossSiteRequest(req('POST', '/apix', { 'sec-fetch-site': 'cross-site' }))).toBe(false);
    expect(isCrossSiteRequest(req('POST', '/api?x', { 'sec-fetch-site': 'cross-site' }))).toBe(true);
  });

  it('falls back to Origin vs Host without Sec-Fetch-Site', () => {
    expect(isCrossSiteRequest(req('POST', '/api/x', { origin: 'https://wallet.example' }))).toBe(false);
    expect(isCrossSiteRequest(req('POST', '/api/x', { origin: 'https://evil.example' }))).toBe(true);
    expect(isCrossSiteRequest(req('POST', '/api/x', { origin: 'https://wallet.example:8443' }))).toBe(true);
    expect(isCrossSiteRequest(req('POST', '/api/x', { origin: 'null' }))).toBe(true);
    expect(isCrossSiteRequest(req('POST', '/api/x', { origin: 'garbage' }))).toBe(true);
  });

  it('allows requests with neither header (curl, server-to-server)', () => {
    expect(isCrossSiteRequest(req('POST', '/api/x'))).toBe(false);
  });
});

describe('CSRF guard in the app', () => {
  const app = buildApp({ db: createOfflineDb() });
  const put = (headers: Record<string, string>) =>
    app.inject({
      method: 'PUT',
      url: '/api/me/settings',
      headers: { host: '127.0.0.1:8080', ...headers },
      payload: {},
    });

  it('answers CROSS_SITE_REQUEST before authentication or validation', async () => {
    const res = await put({ 'sec-fetch-site': 'cross-site' });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ code: 'CROSS_SITE_REQUEST', message: 'Cross-site request refused' });
    expect((await put({ origin: 'http://evil.example' })).json().code).toBe('CROSS_SITE_REQUEST');
  });

  it('lets same-origin requests through', async () => {
    expect((await put({ 'sec-fetch-site': 'same-origin' })).statusCode).toBe(401);
    expect((await put({ origin: 'http://127.0.0.1:8080' })).statusCode).toBe(401);
    expect((await put({})).statusCode).toBe(401);
  });
});
