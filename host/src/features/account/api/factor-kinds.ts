import { api, unwrap } from '@cw/shared-state/api';

/** Which second factors a sign-in waiting for one can use (after the password answered 202). */
export async function factorKinds(): Promise<{ totp: boolean; passkey: boolean; recoveryCode: boolean }> {
  return unwrap(api.GET('/api/auth/login/factor/kinds'));
}
