import { AppError } from '../../errors/app-error.ts';

export class DepositDisabledError extends AppError {
  constructor(coin: string, network: string) {
    super('DEPOSIT_DISABLED', `Deposits of ${coin} on ${network} are not offered`);
    this.name = 'DepositDisabledError';
  }
}

/** More than the daily number of "I have transferred" clicks that matched no deposit. */
export class DepositConfirmLimitError extends AppError {
  constructor(retryAfterSeconds: number) {
    super('DEPOSIT_CONFIRM_LIMIT', 'Too many unconfirmed transfer notices today, try again tomorrow', {
      details: { retryAfterSeconds },
    });
    this.name = 'DepositConfirmLimitError';
  }
}
