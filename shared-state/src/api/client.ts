import type { Client, Middleware } from 'openapi-fetch';
import type { components, paths } from './schema.d.ts';

type ApiClient = Client<paths>;

const unauthenticatedListeners = new Set<() => void>();

/** Run `listener` whenever any call answers 401 UNAUTHENTICATED (the session ended elsewhere). */
export function onUnauthenticated(listener: () => void): () => void {
  unauthenticatedListeners.add(listener);
  return () => unauthenticatedListeners.delete(listener);
}

const unauthenticated: Middleware = {
  async onResponse({ response }) {
    if (response.status !== 401 || unauthenticatedListeners.size === 0) return undefined;
    const body: unknown = await response
      .clone()
      .json()
      .catch(() => null);
    if ((body as { code?: unknown } | null)?.code === 'UNAUTHENTICATED') {
      for (const listener of unauthenticatedListeners) listener();
    }
    return undefined;
  },
};

let loaded: Promise<ApiClient> | null = null;

/**
 * The client library loads with the first call, not with the page: the landing screens make no call
 * until the user submits (the session check below goes without it), so it stays off their bundle.
 */
function client(): Promise<ApiClient> {
  loaded ??= import('openapi-fetch').then(({ default: createClient }) => {
    const made = createClient<paths>({ baseUrl: '', credentials: 'same-origin' });
    made.use(unauthenticated);
    return made;
  });
  return loaded;
}

/** Each method waits for the client, then calls it; the types are the generated client's own. */
function method<M extends 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'>(name: M): ApiClient[M] {
  return ((...args: unknown[]) =>
    client().then((c) => (c[name] as (...a: unknown[]) => unknown)(...args))) as unknown as ApiClient[M];
}

/**
 * The browser's typed API client (openapi-fetch over the generated schema). Same origin: the session
 * travels in the HttpOnly `sid` cookie, never in script-visible storage.
 */
export const api = {
  GET: method('GET'),
  POST: method('POST'),
  PUT: method('PUT'),
  PATCH: method('PATCH'),
  DELETE: method('DELETE'),
};

type SessionAnswer = paths['/api/session']['get']['responses'][200]['content']['application/json'];

/**
 * GET /api/session with plain fetch, in the shape `unwrap` reads: the landing page asks it on every
 * visit, and it should not be what loads the client library.
 */
export async function getSession(): Promise<{ data?: SessionAnswer; error?: unknown; response: Response }> {
  const request = new Request(new URL('/api/session', globalThis.location?.href), {
    credentials: 'same-origin',
    headers: { accept: 'application/json' },
  });
  const response = await fetch(request);
  const body: unknown = await response.json().catch(() => undefined);
  return response.ok ? { data: body as SessionAnswer, response } : { error: body, response };
}

export type Me = components['schemas']['Me'];
export type SessionInfo =
  paths['/api/me/sessions']['get']['responses'][200]['content']['application/json']['sessions'][number];
export type CodePurpose = paths['/api/auth/codes']['post']['requestBody']['content']['application/json']['purpose'];
