import { describe, expect, it } from 'vitest';
import { useAuthHarness } from '../modules/auth/test-helpers.ts';

const h = useAuthHarness();

describe('a known API path with another method', () => {
  it('answers 405 with Allow naming the methods it has; an unknown path stays 404', async () => {
    const me = await h.app.inject({ method: 'DELETE', url: '/api/me' });
    expect([me.statusCode, me.headers.allow, me.json().code]).toEqual([405, 'GET, HEAD', 'METHOD_NOT_ALLOWED']);
    const deposit = await h.app.inject({ method: 'POST', url: '/api/wallet/deposits/4f6c1a2e' });
    expect([deposit.statusCode, deposit.headers.allow]).toEqual([405, 'GET, HEAD']);
    const book = await h.app.inject({ method: 'PATCH', url: '/api/wallet/address-book/1' });
    expect([book.statusCode, book.headers.allow]).toEqual([405, 'DELETE, PUT']);
    const unknown = await h.app.inject({ method: 'GET', url: '/api/nothing-here' });
    expect([unknown.statusCode, unknown.json().code]).toEqual([404, 'NOT_FOUND']);
    // The error still carries the request id and the security headers, like every answer.
    expect(me.headers['x-request-id']).toBeTruthy();
    expect(me.headers['x-content-type-options']).toBe('nosniff');
  });
});

describe('a URL that cannot be decoded', () => {
  it('answers 400 in the one error shape, with the request id and the security headers', async () => {
    const res = await h.app.inject({ method: 'GET', url: '/api/wallet/deposits/%E0%A4%A' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ code: 'VALIDATION_FAILED', message: 'Malformed URL' });
    expect(res.headers['x-request-id']).toBeTruthy();
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cache-control']).toBe('no-store');
  });
});
