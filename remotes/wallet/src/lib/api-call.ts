import { unwrap } from '@cw/shared-state/api';

/**
 * A call to a route that the generated client does not describe yet (it is
 * being built beside these screens). Same contract as the typed client:
 * same-origin cookie, JSON, failures thrown as ApiError by `unwrap`.
 */
export async function apiCall<T>(
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  path: string,
  options: { query?: Record<string, string | number | undefined>; body?: unknown } = {},
): Promise<T> {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(options.query ?? {})) {
    if (value !== undefined && value !== '') params.set(key, String(value));
  }
  const url = params.size > 0 ? `${path}?${params}` : path;
  const request = (async () => {
    const response = await fetch(url, {
      method,
      credentials: 'same-origin',
      headers: options.body === undefined ? {} : { 'Content-Type': 'application/json' },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
    const text = await response.text();
    const json: unknown = text ? JSON.parse(text) : undefined;
    return response.ok ? { data: json, response } : { error: json, response };
  })();
  return (await unwrap(request)) as T;
}
