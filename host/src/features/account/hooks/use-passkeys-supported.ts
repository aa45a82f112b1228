import { passkeysSupported } from '@cw/shared-state/passkeys';
import { useSyncExternalStore } from 'react';

const never = () => () => {};

/**
 * Whether this browser can use passkeys, safe for hydration: the pre-rendered landing pages are built
 * without a browser (false), so the first render while hydrating says false too and the passkey
 * controls appear right after, instead of a hydration mismatch that makes React drop the form.
 */
export function usePasskeysSupported(): boolean {
  return useSyncExternalStore(never, passkeysSupported, () => false);
}
