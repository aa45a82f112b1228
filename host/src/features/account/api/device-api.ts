import { api, type Me, unwrap } from '@cw/shared-state/api';

/** Issue 31: a sign-in from a browser never seen before waits for the e-mailed code or link. */
export async function deviceStatus() {
  return unwrap(api.GET('/api/auth/device'));
}

export async function confirmDevice(code: string): Promise<Me> {
  const { user } = await unwrap(api.POST('/api/auth/device/confirm', { body: { code: code.trim() } }));
  return user;
}

export async function resendDeviceMail(): Promise<void> {
  await unwrap(api.POST('/api/auth/device/resend'));
}

/** The mail's approve link (no session needed: it may be opened on a phone). */
export async function approveDeviceByLink(token: string): Promise<void> {
  await unwrap(api.POST('/api/auth/device/approve-link', { body: { token } }));
}

export async function currentUser(): Promise<Me> {
  return unwrap(api.GET('/api/me'));
}

export async function endPendingSignIn(): Promise<void> {
  await unwrap(api.POST('/api/auth/logout'));
}
