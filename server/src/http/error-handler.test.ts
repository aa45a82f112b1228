import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { createOfflineDb } from '../db/offline-db.ts';
import { AppError, ConflictError, NotFoundError } from '../errors/app-error.ts';
import { errorStatus } from '../errors/codes.ts';
import { LedgerBusyError } from '../modules/ledger/errors.ts';
import { registerErrorHandling, toErrorResponse, validationDetails } from './error-handler.ts';

const db = createOfflineDb();
const sessionResolver = { resolve: async () => ({ userId: 'u' }) };
const validSettings = {
  language: 'en',
  priceColor: 'red-up',
  fiatCurrency: 'EUR',
  quickBuy: { enabled: true, coin: 'BTC', fiatAmount: '10' },
};

describe('error responses', () => {
  it('maps every code to its status in one table', () => {
    for (const [code, status] of Object.entries(errorStatus)) {
      const { status: mapped, body } = toErrorResponse(new AppError(code as keyof typeof errorStatus, 'x'));
      expect([code, mapped]).toEqual([code, status]);
      expect(body).toEqual({ code, message: 'x' });
    }
    expect(toErrorResponse(new NotFoundError()).status).toBe(404);
    expect(toErrorResponse(new ConflictError('taken')).body).toEqual({ code: 'CONFLICT', message: 'taken' });
  });

  it('schema validation failures are VALIDATION_FAILED with the fields', async () => {
    const app = buildApp({ db, sessionResolver });
    const res = await app.inject({
      method: 'PUT',
      url: '/api/me/settings',
      payload: { ...validSettings, language: 'fr', extra: 1, quickBuy: { enabled: true, fiatAmount: '1.234' } },
    });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.code).toBe('VALIDATION_FAILED');
    expect(body.message).toMatch(/^Invalid body: /);
    expect(body.details).toEqual(
      expect.arrayContaining([
        { field: 'language', message: expect.any(String), rule: 'enum' },
        { field: 'extra', message: 'is not allowed', rule: 'unknown' },
        { field: 'quickBuy.coin', message: 'is required', rule: 'required' },
        { field: 'quickBuy.fiatAmount', message: expect.stringContaining('pattern'), rule: 'format' },
      ]),
    );
    expect(body.details).toHaveLength(4);
  });

  it('malformed JSON is VALIDATION_FAILED', async () => {
    const app = buildApp({ db, sessionResolver });
    const res = await app.inject({
      method: 'PUT',
      url: '/api/me/settings',
      headers: { 'content-type': 'application/json' },
      payload: '{"language":',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
  });

  it('unknown /api routes are NOT_FOUND in the same shape', async () => {
    const app = buildApp({ db });
    const res = await app.inject({ method: 'POST', url: '/api/nope?x=1' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ code: 'NOT_FOUND', message: 'Route POST /api/nope not found' });
  });

  it('unexpected errors are INTERNAL without leaking the message', async () => {
    const app = buildApp({ db });
    app.get('/api/test/boom', async () => {
      throw new Error('secret connection string');
    });
    const res = await app.inject({ method: 'GET', url: '/api/test/boom' });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ code: 'INTERNAL', message: 'Internal server error' });
  });

  it('a lost database is SERVICE_UNAVAILABLE', () => {
    const err = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    expect(toErrorResponse(err)).toMatchObject({ status: 503, body: { code: 'SERVICE_UNAVAILABLE' } });
  });

  it('bodies over the limit are PAYLOAD_TOO_LARGE', async () => {
    const app = buildApp({ db, sessionResolver, bodyLimit: 2048 });
    const res = await app.inject({
      method: 'PUT',
      url: '/api/me/settings',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ ...validSettings, padding: 'x'.repeat(4096) }),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
  });

  it('unsupported content types are UNSUPPORTED_MEDIA_TYPE', async () => {
    const app = buildApp({ db, sessionResolver });
    const res = await app.inject({
      method: 'PUT',
      url: '/api/me/settings',
      headers: { 'content-type': 'application/xml' },
      payload: '<a/>',
    });
    expect(res.statusCode).toBe(415);
    expect(res.json()).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE' });
  });

  it('rate limiting answers RATE_LIMITED with Retry-After', async () => {
    const app = buildApp({ db, rateLimit: { max: 2, windowMs: 60_000 } });
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++)
      statuses.push((await app.inject({ method: 'GET', url: '/api/me/settings' })).statusCode);
    expect(statuses).toEqual([401, 401, 429]);
    const res = await app.inject({ method: 'GET', url: '/api/me/settings' });
    expect(res.json()).toMatchObject({ code: 'RATE_LIMITED', message: expect.stringContaining('Rate limit exceeded') });
    const wait = Number(res.headers['retry-after']);
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(60);
    // The same wait in the body, for the screen to say it in words.
    expect(res.json().details).toEqual({ retryAfterSeconds: wait });
    // Another client IP has its own budget.
    const other = await app.inject({ method: 'GET', url: '/api/me/settings', remoteAddress: '10.0.0.2' });
    expect(other.statusCode).toBe(401);
  });

  it('a busy 503 that knows its wait says it in Retry-After too', async () => {
    const app = Fastify();
    registerErrorHandling(app);
    app.get('/api/busy', async () => {
      throw new LedgerBusyError(2);
    });
    const res = await app.inject({ method: 'GET', url: '/api/busy' });
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('2');
    expect(res.json()).toMatchObject({ code: 'LEDGER_BUSY', details: { retryAfterSeconds: 2 } });
    await app.close();
  });

  it('turns Ajv-style errors into details too', () => {
    expect(
      validationDetails([
        { keyword: 'required', instancePath: '/a', params: { missingProperty: 'b' } },
        { keyword: 'type', instancePath: '/list/0/name', message: 'must be string' },
      ]),
    ).toEqual([
      { field: 'a.b', message: 'is required', rule: 'required' },
      { field: 'list.0.name', message: 'must be string', rule: 'type' },
    ]);
  });
});
