import { coerceSettings, type Settings } from './schema.ts';

/**
 * GET/PUT /api/me/settings. Until the shared API client lands this uses fetch
 * with same-origin credentials; 401 means "nobody is signed in" and is
 * returned as null so the store falls back to local settings.
 */
export const SETTINGS_URL = '/api/me/settings';

export class SettingsRequestError extends Error {
  override readonly name = 'SettingsRequestError';
  constructor(readonly status: number) {
    super(`settings request failed with HTTP ${status}`);
  }
}

async function read(response: Response): Promise<Settings | null> {
  if (response.status === 401) return null;
  if (!response.ok) throw new SettingsRequestError(response.status);
  return coerceSettings(await response.json());
}

/** The signed-in user's settings, or null when nobody is signed in. */
export async function fetchServerSettings(signal?: AbortSignal): Promise<Settings | null> {
  const response = await fetch(SETTINGS_URL, {
    credentials: 'same-origin',
    headers: { Accept: 'application/json' },
    signal: signal ?? null,
  });
  return read(response);
}

/** Replaces the signed-in user's settings; null when the session has ended. */
export async function saveServerSettings(settings: Settings): Promise<Settings | null> {
  const response = await fetch(SETTINGS_URL, {
    method: 'PUT',
    credentials: 'same-origin',
    headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
    body: JSON.stringify(settings),
  });
  return read(response);
}
