import { api, unwrap } from '@cw/shared-state/api';
import { currentLanguage } from '@cw/shared-state/i18n';
import type { PasskeyAnswer } from '@cw/shared-state/passkeys';
import { factorFields } from './account-api.ts';

/** Mails a change_email code to the new address. REAUTH_REQUIRED unless proved within 5 minutes. */
export function sendEmailChangeCode(newEmail: string) {
  return unwrap(
    api.POST('/api/me/security/email/code', { body: { newEmail: newEmail.trim(), language: currentLanguage() } }),
  );
}

/** The second factor as typed (a code) or answered (a passkey); nothing when the account has none. */
export type FactorProof = { typed: string } | { passkey: PasskeyAnswer } | null;

function factorBody(proof: FactorProof) {
  if (proof === null) return {};
  if ('passkey' in proof) return { passkey: proof.passkey };
  return proof.typed.trim() === '' ? {} : factorFields(proof.typed);
}

/** Switches the account's address; returns the updated user and how many other sessions ended. */
export function changeEmail(input: { newEmail: string; code: string; endOtherSessions: boolean; factor: FactorProof }) {
  return unwrap(
    api.POST('/api/me/security/email', {
      body: {
        newEmail: input.newEmail.trim(),
        code: input.code.trim(),
        endOtherSessions: input.endOtherSessions,
        ...factorBody(input.factor),
      },
    }),
  );
}

/** The anti-phishing phrase (null when none is set). */
export function antiPhishing() {
  return unwrap(api.GET('/api/me/security/anti-phishing'));
}

/** Sets (or, with null, removes) the phrase. REAUTH_REQUIRED unless proved within 5 minutes. */
export function setAntiPhishing(phrase: string | null) {
  return unwrap(api.PUT('/api/me/security/anti-phishing', { body: { phrase } }));
}
