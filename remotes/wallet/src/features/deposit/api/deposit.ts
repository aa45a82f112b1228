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
  address?: string;
  amountMinor: string;
  txHash: string;
  confirmations: number;
  requiredConfirmations: number;
  state: DepositState;
  reason?: string | null;
  createdAt: string;
  creditedAt?: string | null;
}

export function fetchDepositAddress(coin: string, network: string): Promise<DepositAddress> {
  return apiCall('GET', '/api/wallet/deposit-address', { query: { coin, network } });
}

export function fetchDeposit(id: string): Promise<DepositDetail> {
  return apiCall('GET', `/api/wallet/deposits/${encodeURIComponent(id)}`);
}

/** "I have transferred": refused with DEPOSIT_CONFIRM_LIMIT after 3 unmatched clicks a day. */
export function confirmTransferred(coin: string, network: string): Promise<unknown> {
  return apiCall('POST', '/api/wallet/deposits/confirm-click', { body: { coin, network } });
}
