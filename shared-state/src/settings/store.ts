import { changeLanguage, currentLanguage, i18n, isLanguage, type Language } from '@cw/shared-state/i18n';
import { useSession } from '@cw/shared-state/session';
import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import type { FiatCurrency } from './currencies.ts';
import { type PriceColorMode, type PriceColors, priceColors } from './price-colors.ts';
import type { QuickBuySettings } from './quick-buy.ts';
import { coerceSettings, DEFAULT_SETTINGS, pickSettings, type Settings } from './schema.ts';
import { fetchServerSettings, saveServerSettings } from './settings-client.ts';

/** localStorage key of the settings chosen while signed out. */
export const SETTINGS_STORAGE_KEY = 'settings';

/** Where the effective settings live: the server (signed in) or this browser. */
export type SettingsSource = 'local' | 'server';
export type SettingsSyncStatus = 'idle' | 'syncing' | 'synced' | 'error';

export interface SettingsState extends Settings {
  source: SettingsSource;
  syncStatus: SettingsSyncStatus;
  /** The signed-out settings, persisted under localStorage 'settings'. */
  local: Settings;
  /** Asks the server for the signed-in user's settings; falls back to local ones on 401. */
  sync: () => Promise<void>;
  /** sync() once per page load (concurrent callers share it); later calls resolve at once. */
  ensureSynced: () => Promise<void>;
  setLanguage: (language: Language) => Promise<void>;
  setPriceColor: (priceColor: PriceColorMode) => Promise<void>;
  setFiatCurrency: (fiatCurrency: FiatCurrency) => Promise<void>;
  setQuickBuy: (patch: Partial<QuickBuySettings>) => Promise<void>;
  /** Restores the default price mode, currency and quick buy; the language stays as chosen. */
  reset: () => Promise<void>;
}

// Server writes run one after another, so the last choice is the one stored.
let writes: Promise<unknown> = Promise.resolve();
let firstSync: Promise<void> | null = null;
function serially<T>(task: () => Promise<T>): Promise<T> {
  const run = writes.then(task, task);
  writes = run.catch(() => undefined);
  return run;
}

function initialSettings(): Settings {
  return { ...DEFAULT_SETTINGS, language: currentLanguage() };
}

/**
 * The app's settings, one store shared by host and remotes (shared-state is a
 * federation singleton). Signed in, they are stored on the server (GET/PUT
 * /api/me/settings); signed out, in this browser. The language itself is
 * i18n's: changes go through changeLanguage, so host and every loaded remote
 * switch together and the choice is remembered under localStorage 'lang'.
 */
export const useSettings = create<SettingsState>()(
  persist(
    (set, get) => {
      /** Applies a change (optimistically) and stores the result where the settings live. */
      async function commit(change: (current: Settings) => Settings): Promise<void> {
        // Learn first whether the settings live on the server (signed in) or here.
        await get()
          .ensureSynced()
          .catch(() => undefined);
        const previous = pickSettings(get());
        const next = change(previous);
        const local = get().source === 'local';
        // State first: the languageChanged listener then sees nothing new to save.
        set(local ? { ...next, local: next } : { ...next });
        if (next.language !== currentLanguage()) await changeLanguage(next.language);
        if (local) return;
        try {
          const saved = await serially(() => saveServerSettings(next));
          if (saved === null) set({ ...next, source: 'local', local: next });
          else set({ ...saved });
        } catch (error) {
          set({ ...previous });
          if (previous.language !== currentLanguage()) await changeLanguage(previous.language);
          throw error;
        }
      }

      return {
        ...initialSettings(),
        source: 'local',
        syncStatus: 'idle',
        local: initialSettings(),

        async sync() {
          set({ syncStatus: 'syncing' });
          try {
            // A visitor's settings are this browser's: ask who is there first (GET /api/session, never a
            // 401), so a logged-out page does not ask /api/me/settings and log a 401 (issue 30 item 7).
            const session = useSession.getState();
            const signedIn =
              session.status === 'authenticated' ||
              (session.status === 'unknown' && (await session.refresh()) !== null);
            const server = signedIn ? await fetchServerSettings() : null;
            if (server === null) {
              const local = { ...get().local, language: currentLanguage() };
              set({ ...local, local, source: 'local', syncStatus: 'synced' });
              return;
            }
            if (!server.saved) {
              // A new account: keep what this browser chose (its language, picked on the first visit or
              // by the user) rather than the server's defaults, and store it with the account.
              const local = { ...get().local, language: currentLanguage() };
              set({ ...local, source: 'server', syncStatus: 'synced' });
              void serially(() => saveServerSettings(local)).catch(() => undefined);
              return;
            }
            const { settings } = server;
            // State first: the languageChanged listener then sees nothing new to save.
            set({ ...settings, source: 'server', syncStatus: 'synced' });
            if (settings.language !== currentLanguage()) await changeLanguage(settings.language);
          } catch (error) {
            set({ syncStatus: 'error' });
            throw error;
          }
        },
        ensureSynced() {
          if (get().syncStatus === 'synced') return Promise.resolve();
          firstSync ??= get()
            .sync()
            .catch((error: unknown) => {
              firstSync = null;
              throw error;
            });
          return firstSync;
        },
        setLanguage: (language) => commit((current) => ({ ...current, language })),
        setPriceColor: (priceColor) => commit((current) => ({ ...current, priceColor })),
        setFiatCurrency: (fiatCurrency) => commit((current) => ({ ...current, fiatCurrency })),
        setQuickBuy: (patch) => commit((current) => ({ ...current, quickBuy: { ...current.quickBuy, ...patch } })),
        reset: () =>
          commit((current) => ({
            ...DEFAULT_SETTINGS,
            quickBuy: { ...DEFAULT_SETTINGS.quickBuy },
            language: current.language,
          })),
      };
    },
    {
      name: SETTINGS_STORAGE_KEY,
      version: 1,
      storage: createJSONStorage(() => localStorage),
      partialize: (state) => state.local,
      merge: (persisted, current) => {
        // The remembered language ('lang') wins over the copy kept here.
        const local = { ...coerceSettings(persisted, current.local), language: currentLanguage() };
        return current.source === 'local' ? { ...current, ...local, local } : { ...current, local };
      },
    },
  ),
);

// A language chosen elsewhere (e.g. the host's own picker) is the setting too.
i18n.on('languageChanged', (language: string) => {
  const state = useSettings.getState();
  if (!isLanguage(language) || state.language === language) return;
  if (state.source === 'local') {
    const local = { ...state.local, language };
    useSettings.setState({ language, local });
    return;
  }
  const next = { ...pickSettings(state), language };
  useSettings.setState({ language });
  void serially(() => saveServerSettings(next)).catch(() => undefined);
});

/** Loads the signed-in user's settings, or falls back to the local ones when nobody is signed in. */
export function syncSettings(): Promise<void> {
  return useSettings.getState().sync();
}

// Signing in or out switches where the settings live.
if (useSession.getState().status === 'authenticated') void syncSettings().catch(() => undefined);
useSession.subscribe((session, previous) => {
  if (session.status === previous.status) return;
  if (session.status === 'authenticated') void syncSettings().catch(() => undefined);
  else if (session.status === 'anonymous' && useSettings.getState().source === 'server') {
    const { local } = useSettings.getState();
    useSettings.setState({ ...local, language: currentLanguage(), source: 'local' });
  }
});

/** Rise/fall CSS colours under the user's colour convention (re-renders on change). */
export function usePriceColors(): PriceColors {
  return priceColors(useSettings((state) => state.priceColor));
}
