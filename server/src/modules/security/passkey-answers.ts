import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import { isoBase64URL } from '@simplewebauthn/server/helpers';

/**
 * Reading a browser's WebAuthn answer before (and around) the library's verification: the page origin
 * it names, the user handle, and the library's refusals sorted into the answers the API gives.
 */

/** The `origin` of clientDataJSON, or null when it is not a readable one. */
export function answerOrigin(clientDataJSON: string): string | null {
  try {
    if (clientDataJSON.length > 4096) return null;
    const data = JSON.parse(isoBase64URL.toUTF8String(clientDataJSON)) as { origin?: unknown };
    return typeof data.origin === 'string' && data.origin.length <= 256 ? data.origin : null;
  } catch {
    return null;
  }
}

/** The user handle a discoverable passkey returned (our account id), or null when none was sent. */
export function userHandleOf(response: AuthenticationResponseJSON): string | null {
  const handle = response.response.userHandle;
  if (!handle) return null;
  try {
    return isoBase64URL.toUTF8String(handle);
  } catch {
    return '';
  }
}

export type AssertionOutcome =
  | { kind: 'ok'; newCounter: number; backedUp: boolean }
  | { kind: 'challenge' }
  | { kind: 'counter' }
  | { kind: 'rejected'; why: string };

/**
 * Runs the assertion's verification (assertion-verify.ts); `state.consumed` tells whether the challenge
 * was ours and unused (the challenge callback ran and won its single-use delete).
 */
export async function checkedAssertion(
  verify: () => Promise<{
    verified: boolean;
    authenticationInfo: { newCounter: number; credentialBackedUp: boolean };
  }>,
  state: { consumed: boolean },
): Promise<AssertionOutcome> {
  try {
    const result = await verify();
    if (!result.verified) return { kind: 'rejected', why: 'signature' };
    return {
      kind: 'ok',
      newCounter: result.authenticationInfo.newCounter,
      backedUp: result.authenticationInfo.credentialBackedUp,
    };
  } catch (err) {
    if (!state.consumed) return { kind: 'challenge' };
    const message = (err as Error).message ?? '';
    // @simplewebauthn/server and assertion-verify.ts: "Response counter value N was lower than expected M".
    if (/counter value/i.test(message)) return { kind: 'counter' };
    return { kind: 'rejected', why: message.slice(0, 200) };
  }
}
