import { AppError } from '../../errors/app-error.ts';
import type { ExchangeState } from './states.ts';

export class IllegalTransitionError extends AppError {
  constructor(
    readonly from: ExchangeState,
    readonly to: ExchangeState,
  ) {
    super('EXCHANGE_ILLEGAL_TRANSITION', `An exchange order may not go from ${from} to ${to}`);
    this.name = 'IllegalTransitionError';
  }
}

export class RateExpiredError extends AppError {
  constructor(message = 'The fixed rate expired or was already used') {
    super('EXCHANGE_RATE_EXPIRED', message);
    this.name = 'RateExpiredError';
  }
}
