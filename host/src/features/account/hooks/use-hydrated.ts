import { useSyncExternalStore } from 'react';

const never = () => () => undefined;

/**
 * False in the pre-rendered landing page (the build's render) and while the browser hydrates it, true from
 * then on (and at once when the screen renders afresh): React re-renders with the client's value right after
 * hydrating, without a mismatch.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    never,
    () => true,
    () => false,
  );
}
