import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { UnauthenticatedError } from '../../errors/app-error.ts';
import { findSettings, upsertSettings } from './repository.ts';
import { defaultSettings, type StoredUserSettings, type UserSettings } from './schemas.ts';

export interface SettingsService {
  /** The user's settings, or the defaults (saved: false) when never saved. */
  get(userId: string): Promise<StoredUserSettings>;
  /** Replaces the user's settings; returns them as stored (amount normalised to 2 decimals). */
  replace(userId: string, settings: UserSettings): Promise<StoredUserSettings>;
}

export interface SettingsServiceDeps {
  db: Kysely<Database>;
  now: () => Date;
}

const FOREIGN_KEY_VIOLATION = '23503';

export function createSettingsService({ db, now }: SettingsServiceDeps): SettingsService {
  return {
    async get(userId) {
      const stored = await findSettings(db, userId);
      return stored ? { ...stored, saved: true } : { ...defaultSettings, saved: false };
    },
    async replace(userId, settings) {
      try {
        return { ...(await upsertSettings(db, userId, settings, now())), saved: true };
      } catch (err) {
        // The session outlived its user.
        if ((err as { code?: string }).code === FOREIGN_KEY_VIOLATION)
          throw new UnauthenticatedError('User no longer exists');
        throw err;
      }
    },
  };
}
