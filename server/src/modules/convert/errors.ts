import { AppError, NotFoundError, ValidationError } from '../../errors/app-error.ts';

export class PairUnsupportedError extends AppError {
  constructor(message = 'These coins cannot be converted into each other') {
    super('CONVERT_PAIR_UNSUPPORTED', message);
    this.name = 'PairUnsupportedError';
  }
}

/** Outside [min, max]; `details` carries both so the screen can say which. */
export class AmountOutOfRangeError extends AppError {
  constructor(minMinor: bigint, maxMinor: bigint) {
    super('CONVERT_AMOUNT_OUT_OF_RANGE', `Amount must be between ${minMinor} and ${maxMinor} minor units`, {
      details: [
        { field: 'amountMinor', rule: 'min', message: minMinor.toString() },
        { field: 'amountMinor', rule: 'max', message: maxMinor.toString() },
      ],
    });
    this.name = 'AmountOutOfRangeError';
  }
}

export class StableDustError extends ValidationError {
  constructor() {
    super('A 1:1 conversion into a coin with fewer decimals takes whole units of the target', [
      { field: 'amountMinor', rule: 'precision', message: 'has digits below the target coin unit' },
    ]);
  }
}

export class LiquidityShortError extends AppError {
  constructor(asset: string) {
    super('LIQUIDITY_SHORT', `The ${asset} liquidity account cannot pay this conversion`);
    this.name = 'LiquidityShortError';
  }
}

export class QuoteNotFoundError extends NotFoundError {
  constructor() {
    super('No such quote');
  }
}
