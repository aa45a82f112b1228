import type { SecondFactor } from '../api/second-factor.ts';

/**
 * What a sell is confirmed with: the fund password (once one is set), a `withdraw` e-mail code, and
 * the second factor when the account has one — the app's code (or a recovery code) as typed, or,
 * with a passkey and nothing typed, the passkey's answer asked for at submit.
 */
export interface SellVerification {
  fundPassword: string;
  emailCode: string;
  factorCode: string;
}

export const NO_VERIFICATION: SellVerification = { fundPassword: '', emailCode: '', factorCode: '' };

const SIX_DIGITS = /^\d{6}$/;

/** A typed factor: 6 digits go as the app's code, anything else as a recovery code; '' as nothing. */
export function factorFields(typed: string): { totpCode: string } | { recoveryCode: string } | Record<string, never> {
  const code = typed.trim();
  if (code === '') return {};
  return SIX_DIGITS.test(code) ? { totpCode: code } : { recoveryCode: code };
}

/** Whether the factor must be typed: an app is on and no passkey can answer instead. */
export const factorMustBeTyped = (factor: SecondFactor | undefined) => factor?.totp === true && factor.passkeys === 0;

/** Filled in as the server wants them (the fund password only when the user has one, the factor when on). */
export function verificationReady(
  v: SellVerification,
  hasFundPassword: boolean,
  factor: SecondFactor | undefined,
): boolean {
  return (
    SIX_DIGITS.test(v.emailCode) &&
    (!hasFundPassword || SIX_DIGITS.test(v.fundPassword)) &&
    (!factorMustBeTyped(factor) || v.factorCode.trim() !== '')
  );
}
