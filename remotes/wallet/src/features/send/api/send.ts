import { apiCall } from '../../../lib/api-call.ts';

export type WithdrawalState =
  | 'in_review'
  | 'review_approved'
  | 'review_rejected'
  | 'transfer_in_progress'
  | 'transfer_successful'
  | 'transfer_failed';

export interface Withdrawal {
  id: string;
  coin: string;
  network: string;
  address: string;
  amountMinor: string;
  feeMinor: string;
  arrivalMinor: string;
  state: WithdrawalState;
  reason?: string | null;
  txHash?: string | null;
  createdAt: string;
  updatedAt?: string;
}

export interface Send {
  id: string;
  coin: string;
  amountMinor: string;
  recipientKind: 'email' | 'address';
  /** As the sender typed it; null when seen by the recipient. */
  recipient: string | null;
  network: string | null;
  direction: 'out' | 'in';
  createdAt: string;
}

export interface Verification {
  /** The 6-digit code e-mailed for this withdrawal or send. */
  emailCode: string;
  /** Only when the user has a fund password; kept in memory, never stored. */
  fundPassword?: string;
}

export function createWithdrawal(
  input: { coin: string; network: string; address: string; amountMinor: string; idempotencyKey: string } & Verification,
): Promise<Withdrawal> {
  return apiCall('POST', '/api/wallet/withdrawals', { body: input });
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
): Promise<Send> {
  return apiCall('POST', '/api/wallet/sends', { body: input });
}

export function fetchWithdrawal(id: string): Promise<Withdrawal> {
  return apiCall('GET', `/api/wallet/withdrawals/${encodeURIComponent(id)}`);
}

export function fetchSend(id: string): Promise<Send> {
  return apiCall('GET', `/api/wallet/sends/${encodeURIComponent(id)}`);
}

/** E-mails the verification code of a withdrawal or send to the account address. */
export function sendWithdrawCode(language: string): Promise<unknown> {
  return apiCall('POST', '/api/wallet/withdrawals/email-code', { body: { language } });
}

export function verifyFundPassword(fundPassword: string): Promise<unknown> {
  return apiCall('POST', '/api/me/fund-password/verify', { body: { fundPassword } });
}
