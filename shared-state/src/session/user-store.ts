import { create } from 'zustand';
import { type PersistStorage, persist, type StorageValue } from 'zustand/middleware';

/**
 * Persisted user state, kept under localStorage key `vuex` as the raw
 * `{ user: { allowBack, email } }` object, for continuity with the data the
 * earlier app stored. One store instance is shared by host and remotes
 * (shared-state is a federation singleton).
 */
export interface UserState {
  allowBack: boolean;
  email: string;
}

export interface PersistedState {
  user: UserState;
}

interface UserStore extends PersistedState {
  setAllowBack: (allowBack: boolean) => void;
  setEmail: (email: string) => void;
}

export const USER_STORAGE_KEY = 'vuex';
export const DEFAULT_USER_STATE: UserState = { allowBack: false, email: '' };

const rawStorage: PersistStorage<PersistedState> = {
  getItem(name): StorageValue<PersistedState> | null {
    const raw = globalThis.localStorage?.getItem(name);
    if (!raw) return null;
    try {
      const parsed = JSON.parse(raw) as Partial<PersistedState>;
      return { state: { user: { ...DEFAULT_USER_STATE, ...parsed.user } }, version: 0 };
    } catch {
      return null;
    }
  },
  setItem(name, value) {
    globalThis.localStorage?.setItem(name, JSON.stringify({ user: value.state.user }));
  },
  removeItem(name) {
    globalThis.localStorage?.removeItem(name);
  },
};

export const useUserStore = create<UserStore>()(
  persist(
    (set) => ({
      user: { ...DEFAULT_USER_STATE },
      setAllowBack: (allowBack) => set((state) => ({ user: { ...state.user, allowBack } })),
      setEmail: (email) => set((state) => ({ user: { ...state.user, email } })),
    }),
    {
      name: USER_STORAGE_KEY,
      storage: rawStorage,
      partialize: (state) => ({ user: state.user }),
    },
  ),
);
