import { api, unwrap } from '@cw/shared-state/api';

/** The withdrawal allowlist: on/off, a pending turn-off and the hold (issue 31). */
export function allowlistStatus() {
  return unwrap(api.GET('/api/me/security/allowlist'));
}

/** On at once; off after the hold. REAUTH_REQUIRED unless the password was proved within 5 minutes. */
export function setAllowlist(on: boolean) {
  return unwrap(api.PUT('/api/me/security/allowlist', { body: { on } }));
}

/** One page of the login history (newest first); `before` is the previous page's nextBefore. */
export function loginHistory(before?: string) {
  return unwrap(
    api.GET('/api/me/security/logins', { params: { query: before ? { before, limit: 20 } : { limit: 20 } } }),
  );
}

export type AllowlistState = Awaited<ReturnType<typeof allowlistStatus>>;
export type LoginPage = Awaited<ReturnType<typeof loginHistory>>;
