import createClient from 'openapi-fetch';
import type { components, paths } from './draft-paths.ts';

/**
 * The browser's typed API client. Same origin: the session travels in the
 * HttpOnly `sid` cookie, never in script-visible storage.
 */
export const api = createClient<paths>({ baseUrl: '', credentials: 'same-origin' });

export type Me = components['schemas']['Me'];
export type SessionInfo =
  paths['/api/me/sessions']['get']['responses'][200]['content']['application/json']['sessions'][number];
export type CodePurpose = paths['/api/auth/codes']['post']['requestBody']['content']['application/json']['purpose'];
