import { apiCall } from '../../../lib/api-call.ts';

export interface DepositAddress {
  coin: string;
  network: string;
  address: string;
  minDepositMinor: string;
  confirmations: number;
  expectedArrivalMinutes: number;
}

export type DepositState = 'confirming' | 'successful' | 'failed';

export interface DepositDetail {
  id: string;
  coin: string;
  network: string;
  txHash: string;
  fromAddress: string | null;
  toAddress: string;
  amountMinor: string;
  blockNumber: string;
  confirmations: number;
  requiredConfirmations: number;
  state: DepositState;
  /** below_minimum | reorged */
  reason: string | null;
  createdAt: string;
  completedAt: string | null;
}

export interface ConfirmClickResult {
  /** A deposit of this coin and network arrived in the last 24 hours. */
  matched: boolean;
  depositId: string | null;
  /** Unmatched clicks still allowed today; then DEPOSIT_CONFIRM_LIMIT. */
  unmatchedLeftToday: number;
}

export function fetchDepositAddress(coin: string, network: string): Promise<DepositAddress> {
  return apiCall('GET', '/api/wallet/deposit-address', { query: { coin, network } });
}

export function fetchDeposit(id: string): Promise<DepositDetail> {
  return apiCall('GET', `/api/wallet/deposits/${encodeURIComponent(id)}`);
}

/** "I have transferred": refused with DEPOSIT_CONFIRM_LIMIT after 3 unmatched clicks a day. */
export function confirmTransferred(coin: string, network: string): Promise<ConfirmClickResult> {
  return apiCall('POST', '/api/wallet/deposits/confirm-click', { body: { coin, network } });
}
