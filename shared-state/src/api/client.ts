import createClient from 'openapi-fetch';
import type { components, paths } from './schema.d.ts';

/**
 * The browser's typed API client. Same origin: the session travels in the
 * HttpOnly `sid` cookie, never in script-visible storage.
 */
export const api = createClient<paths>({ baseUrl: '', credentials: 'same-origin' });

const unauthenticatedListeners = new Set<() => void>();

/** Run `listener` whenever any call answers 401 UNAUTHENTICATED (the session ended elsewhere). */
export function onUnauthenticated(listener: () => void): () => void {
  unauthenticatedListeners.add(listener);
  return () => unauthenticatedListeners.delete(listener);
}

api.use({
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
});

export type Me = components['schemas']['Me'];
export type SessionInfo =
  paths['/api/me/sessions']['get']['responses'][200]['content']['application/json']['sessions'][number];
export type CodePurpose = paths['/api/auth/codes']['post']['requestBody']['content']['application/json']['purpose'];
