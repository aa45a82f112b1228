import { useUserStore } from './user-store.ts';

/** sessionStorage key of the page a visitor wanted before being sent to log in. */
export const RETURN_TO_STORAGE_KEY = 'cw.returnTo';

function safePath(path: unknown): path is string {
  // Only same-app paths: never an absolute or protocol-relative URL.
  return typeof path === 'string' && path.startsWith('/') && !path.startsWith('//');
}

/** Remember where to return after logging in, and allow going back there. */
export function rememberReturnTo(path: string): void {
  if (!safePath(path)) return;
  try {
    globalThis.sessionStorage?.setItem(RETURN_TO_STORAGE_KEY, path);
  } catch {
    // Storage unavailable: the user lands on the default page after login.
  }
  useUserStore.getState().setAllowBack(true);
}

/**
 * After a login: the remembered page when going back is allowed, else
 * `fallback`. Clears the memory and the allowBack flag either way.
 */
export function takeReturnTo(fallback: string): string {
  const { user, setAllowBack } = useUserStore.getState();
  let stored: string | null = null;
  try {
    stored = globalThis.sessionStorage?.getItem(RETURN_TO_STORAGE_KEY) ?? null;
    globalThis.sessionStorage?.removeItem(RETURN_TO_STORAGE_KEY);
  } catch {
    stored = null;
  }
  if (user.allowBack) setAllowBack(false);
  return user.allowBack && safePath(stored) ? stored : fallback;
}
