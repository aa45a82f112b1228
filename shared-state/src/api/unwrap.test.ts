import { describe, expect, it } from 'vitest';
import { ApiError, fieldErrors, parseRetryAfter, retryAfterSeconds } from './api-error.ts';
import { unwrap } from './unwrap.ts';

function result(status: number, body: { data?: unknown; error?: unknown }, headers: Record<string, string> = {}) {
  return Promise.resolve({ ...body, response: new Response(null, { status: status === 204 ? 204 : 200 }) }).then(
    (value) => ({
      ...value,
      response: { ...value.response, ok: status < 400, status, headers: new Headers(headers) } as Response,
    }),
  );
}

async function caught(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected a rejection');
}

describe('unwrap', () => {
  it('resolves to the data of a success', async () => {
    await expect(unwrap(result(200, { data: { ok: 1 } }))).resolves.toEqual({ ok: 1 });
  });

  it('throws the server error body as an ApiError with the status', async () => {
    const error = await caught(
      unwrap(
        result(429, { error: { code: 'CODE_RESEND_TOO_SOON', message: 'wait', details: { retryAfterSeconds: 42 } } }),
      ),
    );
    expect(error).toMatchObject({ code: 'CODE_RESEND_TOO_SOON', message: 'wait', status: 429 });
    expect(retryAfterSeconds(error)).toBe(42);
  });

  it('takes the wait from Retry-After when the body has none, and names a bare 429 RATE_LIMITED', async () => {
    const limited = await caught(
      unwrap(result(429, { error: { code: 'RATE_LIMITED', message: 'x' } }, { 'retry-after': '30' })),
    );
    expect(retryAfterSeconds(limited)).toBe(30);
    const proxy = await caught(unwrap(result(429, { error: '<html>' }, { 'retry-after': '120' })));
    expect(proxy).toMatchObject({ code: 'RATE_LIMITED', status: 429 });
    expect(retryAfterSeconds(proxy)).toBe(120);
    expect(parseRetryAfter(new Date(Date.UTC(2030, 0, 1, 0, 1)).toUTCString(), Date.UTC(2030, 0, 1))).toBe(60);
    expect(parseRetryAfter('soon')).toBeUndefined();
  });

  it('reads VALIDATION_FAILED field details', async () => {
    const details = [{ field: 'email', rule: 'format' }, { bogus: true }];
    const error = await caught(unwrap(result(400, { error: { code: 'VALIDATION_FAILED', message: 'x', details } })));
    expect(fieldErrors(error)).toEqual([{ field: 'email', rule: 'format' }]);
  });

  it('maps a gateway failure without a JSON body to SERVICE_UNAVAILABLE', async () => {
    const error = await caught(unwrap(result(502, { error: '<html>Bad Gateway</html>' })));
    expect(error).toMatchObject({ code: 'SERVICE_UNAVAILABLE', status: 502 });
  });

  it('maps a rejected fetch to NETWORK_ERROR', async () => {
    const error = await caught(unwrap(Promise.reject(new TypeError('Failed to fetch'))));
    expect(error).toMatchObject({ code: 'NETWORK_ERROR', status: 0 });
  });
});
