import { AppError } from '../../errors/app-error.ts';

/** No fresh price for a coin: quoting would be quoting blind, so we refuse. */
export class PriceUnavailableError extends AppError {
  constructor(message = 'No fresh price for this coin') {
    super('PRICE_UNAVAILABLE', message);
    this.name = 'PriceUnavailableError';
  }
}
