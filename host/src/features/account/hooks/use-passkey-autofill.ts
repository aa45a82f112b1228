import {
  cancelPasskeyCeremony,
  passkeyAutofillSupported,
  type SignInResult,
  signInWithPasskey,
} from '@cw/shared-state/passkeys';
import { useEffect, useRef } from 'react';

/**
 * Conditional UI on the login screen: while it is shown, the browser offers the account's passkeys
 * in the user name field's suggestions (autocomplete="username webauthn"); picking one signs in.
 * The waiting ceremony is cancelled on leaving (and by any button-started ceremony, which the
 * browser library does itself). Failures stay silent: the password form is still there.
 */
export function usePasskeyAutofill(enabled: boolean, onSignedIn: (result: SignInResult) => void): void {
  const latest = useRef(onSignedIn);
  latest.current = onSignedIn;
  useEffect(() => {
    if (!enabled) return;
    let active = true;
    void passkeyAutofillSupported().then((supported) => {
      if (!supported || !active) return;
      signInWithPasskey({ autofill: true }).then(
        (me) => {
          if (active) latest.current(me);
        },
        () => undefined,
      );
    });
    return () => {
      active = false;
      cancelPasskeyCeremony();
    };
  }, [enabled]);
}
