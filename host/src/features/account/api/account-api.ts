import { api, type CodePurpose, type Me, type SessionInfo, unwrap } from '@cw/shared-state/api';
import { currentLanguage } from '@cw/shared-state/i18n';

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

export async function login(identifier: string, password: string): Promise<Me> {
  const { user } = await unwrap(api.POST('/api/auth/login', { body: { identifier: identifier.trim(), password } }));
  return user;
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
