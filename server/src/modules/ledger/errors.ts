import { AppError } from '../../errors/app-error.ts';

export class InsufficientBalanceError extends AppError {
  /** The account that would have gone below zero (for logs; not sent to the client). */
  readonly accountId: string;
  constructor(accountId: string) {
    super('INSUFFICIENT_BALANCE', 'Balance too low for this transfer');
    this.name = 'InsufficientBalanceError';
    this.accountId = accountId;
  }
}

export class IdempotencyKeyReusedError extends AppError {
  constructor() {
    super('IDEMPOTENCY_KEY_REUSED', 'This idempotency key already names a different transfer');
    this.name = 'IdempotencyKeyReusedError';
  }
}

/** The posting queue is full: the caller retries later with the same idempotency key. */
export class LedgerBusyError extends AppError {
  constructor(retryAfterSeconds: number) {
    super('LEDGER_BUSY', 'The ledger is busy, retry shortly', { details: { retryAfterSeconds } });
    this.name = 'LedgerBusyError';
  }
}
