import { api, unwrap } from '@cw/shared-state/api';
import type { PasskeyAnswer } from '@cw/shared-state/passkeys';
import { factorFields } from './account-api.ts';

/** Issue 31: freeze my account, its mail link, and the unfreeze (password, factor, e-mail code, hold). */
export async function freezeStatus() {
  return unwrap(api.GET('/api/me/security/freeze'));
}

export async function freezeAccount(): Promise<void> {
  await unwrap(api.POST('/api/me/security/freeze'));
}

export async function freezeByLink(token: string): Promise<void> {
  await unwrap(api.POST('/api/security/freeze-link', { body: { token } }));
}

export async function unfreeze(input: {
  password: string;
  emailCode: string;
  factor: string;
  passkey?: PasskeyAnswer;
}) {
  // A passkey's answer is the second factor on its own (a passkey-only account has no code to type).
  const factor = input.passkey
    ? { passkey: input.passkey }
    : input.factor.trim() === ''
      ? {}
      : factorFields(input.factor);
  return unwrap(
    api.POST('/api/me/security/freeze/unfreeze', {
      body: { password: input.password, emailCode: input.emailCode, ...factor },
    }),
  );
}
