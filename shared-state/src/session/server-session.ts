import { create } from 'zustand';
import { isApiError } from '../api/api-error.ts';
import { api, getSession, type Me, onUnauthenticated } from '../api/client.ts';
import { unwrap } from '../api/unwrap.ts';

export type SessionStatus = 'unknown' | 'anonymous' | 'authenticated';

export interface SessionState {
  status: SessionStatus;
  me: Me | null;
  /**
   * Ask the server who is logged in (GET /api/session, which answers a visitor with 200 and no user
   * rather than 401: "am I signed in?" is not an error, and a 401 would be a console error on every
   * logged-out visit). Concurrent calls share one request.
   */
  refresh: () => Promise<Me | null>;
  /** The same question as refresh() (kept for the screens that ask it by this name). */
  check: () => Promise<Me | null>;
  /** Record the user a login or registration answered with. */
  signedIn: (me: Me) => void;
  /** Forget the user locally (e.g. after a 401 or a password reset). */
  signedOut: () => void;
  /** End the session on the server (POST /api/auth/logout) and forget the user. */
  logout: () => Promise<void>;
}

let pending: Promise<Me | null> | null = null;
const logoutListeners = new Set<() => void>();

const userChangeListeners = new Set<() => void>();

/**
 * Run `listener` whenever the signed-in user ends or changes: signed out (a logout, a 401, an expiry, a
 * password reset) or another user id answered. Whatever is cached of the previous user (queries, a
 * deposit address) must go, or the next account on this tab would be shown it.
 */
export function onUserChanged(listener: () => void): () => void {
  userChangeListeners.add(listener);
  return () => userChangeListeners.delete(listener);
}

/** Run `listener` whenever the user signs out (e.g. clear cached queries). */
export function onSignedOut(listener: () => void): () => void {
  logoutListeners.add(listener);
  return () => logoutListeners.delete(listener);
}

/**
 * The server session: who is logged in, as the HttpOnly `sid` cookie says.
 * Nothing about the session is persisted in script-visible storage; the
 * status starts 'unknown' on every page load until refresh() answers.
 */
export const useSession = create<SessionState>()((set, get) => ({
  status: 'unknown',
  me: null,
  refresh() {
    pending ??= unwrap(getSession())
      .then(
        ({ user }) => {
          if (user) set({ status: 'authenticated', me: user });
          else get().signedOut();
          return user;
        },
        (error: unknown) => {
          if (isApiError(error) && error.status === 401) {
            get().signedOut();
            return null;
          }
          // No answer: keep what we knew, the caller shows the error.
          throw error;
        },
      )
      .finally(() => {
        pending = null;
      });
    return pending;
  },
  check() {
    return get().refresh();
  },
  signedIn(me) {
    set({ status: 'authenticated', me });
  },
  signedOut() {
    const wasSignedIn = get().status === 'authenticated';
    set({ status: 'anonymous', me: null });
    if (wasSignedIn) for (const listener of logoutListeners) listener();
  },
  async logout() {
    try {
      await unwrap(api.POST('/api/auth/logout'));
    } catch (error) {
      // Already signed out on the server: nothing left to end.
      if (!(isApiError(error) && error.status === 401)) throw error;
    } finally {
      get().signedOut();
    }
  },
}));

// Every path that sets the user (refresh, check, signedIn, signedOut) goes through the store: one
// subscription sees each change of user id, however it came.
useSession.subscribe((state, previous) => {
  const before = previous.me?.id ?? null;
  if (before !== null && before !== (state.me?.id ?? null)) for (const listener of userChangeListeners) listener();
});

/** The signed-in user's id ('' when nobody is): part of every user-scoped query key. */
export const useUserId = (): string => useSession((state) => state.me?.id ?? '');

// Any call answering 401 UNAUTHENTICATED means the session ended (logged out
// elsewhere, password changed, expired): forget the user so guards react.
onUnauthenticated(() => {
  if (useSession.getState().status === 'authenticated') useSession.getState().signedOut();
});
