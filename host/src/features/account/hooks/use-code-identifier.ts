import { useEffect, useState } from 'react';
import { needsCode } from '../utils/code-identifiers.ts';

/**
 * Whether the identifier typed is one this device saw need the authenticator code: then the login
 * form asks for the code under the password and sends both in one request.
 */
export function useCodeIdentifier(identifier: string): boolean {
  const [withCode, setWithCode] = useState(false);
  useEffect(() => {
    let current = true;
    // No field (and no code sent) until this identifier's answer is in: a code typed for another
    // identifier must never go with this one's password.
    setWithCode(false);
    // The hash is asynchronous (Web Crypto): an answer for an identifier typed over is dropped.
    needsCode(identifier).then(
      (needed) => {
        if (current) setWithCode(needed);
      },
      () => {
        if (current) setWithCode(false);
      },
    );
    return () => {
      current = false;
    };
  }, [identifier]);
  return withCode;
}
