import { api, unwrap } from '@cw/shared-state/api';
import { asCoin, asNetwork } from '@cw/shared-state/catalogue';
import type { Language } from '@cw/shared-state/i18n';
import type { PasskeyAnswer } from '@cw/shared-state/passkeys';

export interface Verification {
  /** The 6-digit code e-mailed for this withdrawal or send. */
  emailCode: string;
  /** Only when the user has a fund password; kept in memory, never stored. */
  fundPassword?: string;
  /** Only when the user has an authenticator app (the server answers FACTOR_REQUIRED otherwise). */
  totpCode?: string;
  recoveryCode?: string;
  /** Or a passkey's answer to a step-up challenge (POST /api/me/security/passkeys/challenge). */
  passkey?: PasskeyAnswer;
}

/** A 6-digit code goes as the app's code, anything else as a recovery code; '' as nothing. */
export function factorFields(typed: string): Pick<Verification, 'totpCode' | 'recoveryCode'> {
  const code = typed.trim();
  if (code === '') return {};
  return /^\d{6}$/.test(code) ? { totpCode: code } : { recoveryCode: code };
}

export function createWithdrawal(
  input: { coin: string; network: string; address: string; amountMinor: string; idempotencyKey: string } & Verification,
) {
  return unwrap(
    api.POST('/api/wallet/withdrawals', {
      body: { ...input, coin: asCoin(input.coin), network: asNetwork(input.network) },
    }),
  );
}

export function createSend(
  input: {
    coin: string;
    recipient: string;
    recipientKind: 'email' | 'address';
    /** The network of a deposit-address recipient. */
    network?: string;
    amountMinor: string;
    idempotencyKey: string;
  } & Verification,
) {
  const { network, ...rest } = input;
  return unwrap(
    api.POST('/api/wallet/sends', {
      body: { ...rest, coin: asCoin(input.coin), ...(network ? { network: asNetwork(network) } : {}) },
    }),
  );
}

export function fetchWithdrawal(id: string) {
  return unwrap(api.GET('/api/wallet/withdrawals/{id}', { params: { path: { id } } }));
}

export function fetchSend(id: string) {
  return unwrap(api.GET('/api/wallet/sends/{id}', { params: { path: { id } } }));
}

/** E-mails the verification code of a withdrawal to the account address. */
export function sendWithdrawCode(language: Language) {
  return unwrap(api.POST('/api/wallet/withdrawals/email-code', { body: { language } }));
}

/** E-mails the verification code of a transfer to another user (the e-mail says "transfer"). */
export function sendTransferCode(language: Language) {
  return unwrap(api.POST('/api/wallet/sends/email-code', { body: { language } }));
}

/** Who a transfer would go to: found, not the sender (errors RECIPIENT_NOT_FOUND, SEND_TO_SELF, ADDRESS_INVALID). */
export function checkRecipient(recipientKind: 'email' | 'address', recipient: string) {
  return unwrap(api.POST('/api/wallet/sends/recipient', { body: { recipientKind, recipient } }));
}

export function verifyFundPassword(fundPassword: string) {
  return unwrap(api.POST('/api/me/fund-password/verify', { body: { fundPassword } }));
}

export type Withdrawal = Awaited<ReturnType<typeof fetchWithdrawal>>;
export type WithdrawalState = Withdrawal['state'];

/** E-mails the code that sets or changes the fund password. */
export function sendFundPasswordCode(language: Language) {
  return unwrap(api.POST('/api/auth/codes', { body: { purpose: 'fund_password', language } }));
}
