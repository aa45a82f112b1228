import { api, type CodePurpose, type Me, type SessionInfo, unwrap } from '@cw/shared-state/api';
import { currentLanguage } from '@cw/shared-state/i18n';
import type { PasskeyAnswer, SignInResult } from '@cw/shared-state/passkeys';

/** Thin, typed wrappers over the accounts endpoints; every failure throws an ApiError. */

export async function sendCode(purpose: CodePurpose, email?: string): Promise<{ resendAfterSeconds: number }> {
  const language = currentLanguage();
  return unwrap(
    api.POST('/api/auth/codes', { body: email === undefined ? { purpose, language } : { purpose, email, language } }),
  );
}

export interface RegisterInput {
  username: string;
  nickname: string;
  country: string;
  password: string;
  confirmPassword: string;
  email: string;
  code: string;
  /** Optional; '' when none. */
  inviteCode: string;
}

export async function register(input: RegisterInput): Promise<Me> {
  const nickname = input.nickname.trim();
  const { user } = await unwrap(
    api.POST('/api/auth/register', {
      body: {
        ...input,
        email: input.email.trim(),
        ...(nickname === '' ? { nickname: undefined } : { nickname }),
        inviteCode: input.inviteCode.trim() === '' ? undefined : input.inviteCode.replace(/[\s-]/g, '').toUpperCase(),
        agreementAccepted: true,
      },
    }),
  );
  return user;
}

/**
 * The user; `factorRequired` when the account has an authenticator app (the second step comes next);
 * `deviceConfirmationRequired` when this browser is new (the e-mailed code or link comes next).
 */
export async function login(
  identifier: string,
  password: string,
  totpCode?: string,
): Promise<SignInResult | { factorRequired: true }> {
  // A returning device that knows the app is on sends its code too: one request instead of two.
  const body = { identifier: identifier.trim(), password, ...(totpCode ? { totpCode } : {}) };
  const result = await unwrap(api.POST('/api/auth/login', { body }));
  if ('factorRequired' in result) return { factorRequired: true };
  if ('deviceConfirmationRequired' in result) return { deviceConfirmationRequired: true };
  return result.user;
}

/** A 6-digit code goes as the app's code, anything else as a recovery code. */
export function factorFields(typed: string): { totpCode: string } | { recoveryCode: string } {
  const code = typed.trim();
  return /^\d{6}$/.test(code) ? { totpCode: code } : { recoveryCode: code };
}

/** The second step of a sign-in (then, from a new browser, the e-mail step). */
export async function loginFactor(typed: string): Promise<SignInResult> {
  const result = await unwrap(api.POST('/api/auth/login/factor', { body: factorFields(typed) }));
  return 'user' in result ? result.user : { deviceConfirmationRequired: true };
}

export async function securityStatus() {
  return unwrap(api.GET('/api/me/security'));
}

/** Proves the password (and the code when an app is on) again: security changes for 5 minutes. */
export async function reauthenticate(password: string, code: string): Promise<void> {
  await unwrap(
    api.POST('/api/me/security/reauth', { body: { password, ...(code.trim() === '' ? {} : factorFields(code)) } }),
  );
}

/** A passkey answer alone re-authenticates (it is both factors). */
export async function reauthenticateWithPasskey(passkey: PasskeyAnswer): Promise<void> {
  await unwrap(api.POST('/api/me/security/reauth', { body: { passkey } }));
}

export async function startTotp(): Promise<{ secret: string; uri: string }> {
  return unwrap(api.POST('/api/me/security/totp'));
}

export async function confirmTotp(code: string): Promise<string[]> {
  const { recoveryCodes } = await unwrap(api.POST('/api/me/security/totp/confirm', { body: { code: code.trim() } }));
  return recoveryCodes;
}

export async function removeTotp(code: string): Promise<void> {
  await unwrap(api.POST('/api/me/security/totp/remove', { body: factorFields(code) }));
}

export async function newRecoveryCodes(): Promise<string[]> {
  const { recoveryCodes } = await unwrap(api.POST('/api/me/security/recovery-codes'));
  return recoveryCodes;
}

export async function resetPassword(input: {
  email: string;
  code: string;
  password: string;
  confirmPassword: string;
}): Promise<void> {
  await unwrap(api.POST('/api/auth/password/reset', { body: { ...input, email: input.email.trim() } }));
}

export async function changePassword(input: {
  oldPassword: string;
  password: string;
  confirmPassword: string;
  /** Default true: every other session ends. */
  endOtherSessions?: boolean;
}): Promise<void> {
  await unwrap(api.POST('/api/me/password', { body: input }));
}

export async function setFundPassword(input: {
  code: string;
  fundPassword: string;
  confirmFundPassword: string;
}): Promise<void> {
  await unwrap(api.POST('/api/me/fund-password', { body: input }));
}

export async function listSessions(): Promise<SessionInfo[]> {
  const { sessions } = await unwrap(api.GET('/api/me/sessions'));
  return sessions;
}

export async function revokeOtherSessions(): Promise<number> {
  const { revoked } = await unwrap(api.POST('/api/me/sessions/revoke-others'));
  return revoked;
}

export async function revokeSession(id: string): Promise<void> {
  await unwrap(api.DELETE('/api/me/sessions/{id}', { params: { path: { id } } }));
}
