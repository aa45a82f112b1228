/** What a sell is confirmed with: the fund password (once one is set) and a `withdraw` e-mail code. */
export interface SellVerification {
  fundPassword: string;
  emailCode: string;
}

export const NO_VERIFICATION: SellVerification = { fundPassword: '', emailCode: '' };

const SIX_DIGITS = /^\d{6}$/;

/** Both are filled in as the server wants them (the fund password only when the user has one). */
export function verificationReady(v: SellVerification, hasFundPassword: boolean): boolean {
  return SIX_DIGITS.test(v.emailCode) && (!hasFundPassword || SIX_DIGITS.test(v.fundPassword));
}
