import { api, isApiError, unwrap } from '@cw/shared-state/api';
import { coerceSettings, type Settings } from './schema.ts';

/** 401 means nobody is signed in: null, so the store uses the local settings. */
async function orSignedOut(request: Promise<unknown>): Promise<Settings | null> {
  try {
    return coerceSettings(await request);
  } catch (error) {
    if (isApiError(error) && error.status === 401) return null;
    throw error;
  }
}

/**
 * The signed-in user's settings, or null when nobody is signed in. `saved: false`: the account never
 * saved any, and these are the server's defaults.
 */
export async function fetchServerSettings(): Promise<{ settings: Settings; saved: boolean } | null> {
  try {
    const body = await unwrap(api.GET('/api/me/settings'));
    return { settings: coerceSettings(body), saved: body.saved };
  } catch (error) {
    if (isApiError(error) && error.status === 401) return null;
    throw error;
  }
}

/** Replaces the signed-in user's settings; null when the session has ended. */
export function saveServerSettings(settings: Settings): Promise<Settings | null> {
  return orSignedOut(unwrap(api.PUT('/api/me/settings', { body: settings })));
}
