import { AppError } from '../../errors/app-error.ts';
import type { ExchangeState } from './states.ts';

export class IllegalTransitionError extends AppError {
  readonly from: ExchangeState;
  readonly to: ExchangeState;
  /**
   * The order was no longer in the state the caller read (another worker moved it first): a lost race,
   * not a defect. False: the caller asked for a change the state table does not have (a defect).
   */
  readonly raced: boolean;

  constructor(from: ExchangeState, to: ExchangeState, raced = false) {
    super('EXCHANGE_ILLEGAL_TRANSITION', `An exchange order may not go from ${from} to ${to}`);
    this.from = from;
    this.to = to;
    this.raced = raced;
    this.name = 'IllegalTransitionError';
  }
}

/**
 * The deposit the chain shows for an order is not the one recorded on it (a dust transfer recorded
 * before dust was skipped, a reorg that replaced the recorded transfer): the order cannot move on by
 * itself. An operator looks (the module logs it as an ALERT each time the engine looks at the order).
 */
export class DepositMismatchError extends Error {
  readonly orderId: string;
  readonly recordedTxHash: string;
  readonly observedTxHash: string;

  constructor(orderId: string, recordedTxHash: string, observedTxHash: string) {
    super(`exchange order ${orderId}: recorded deposit ${recordedTxHash}, the chain shows ${observedTxHash}`);
    this.orderId = orderId;
    this.recordedTxHash = recordedTxHash;
    this.observedTxHash = observedTxHash;
    this.name = 'DepositMismatchError';
  }
}

export class RateExpiredError extends AppError {
  constructor(message = 'The fixed rate expired or was already used') {
    super('EXCHANGE_RATE_EXPIRED', message);
    this.name = 'RateExpiredError';
  }
}
