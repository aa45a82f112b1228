/**
 * The exchange order state machine. This table is THE definition of which state changes exist:
 * the service asserts it before every update, and migration 0010 copies it into
 * `exchange_order_transitions`, which a trigger on `exchange_orders` checks (a raw SQL update
 * outside these rows is refused). Changing the table needs a new migration that rewrites those
 * rows; `states.test.ts` fails while the two differ.
 */

export const exchangeStates = [
  /** Created; the deposit address is being assigned. */
  'new',
  /** Waiting for the user's deposit until the deadline (fixed: the rate window; float: EXCHANGE_FLOAT_WINDOW_MS). */
  'waiting',
  /** Deposit seen on chain, waiting for its confirmations. */
  'confirming',
  /** Deposit confirmed: settling the rate and the receive amount. */
  'exchanging',
  /** Payout handed to the signer, waiting for its transaction. */
  'sending',
  /** Payout transaction mined. Terminal. */
  'completed',
  /**
   * The deadline passed without a deposit. Terminal unless a deposit arrives: late -> refunded; mined
   * before the deadline but seen after the expiry -> confirming.
   */
  'expired',
  /** The deposit went back to the refund address (outside limits, rate moved, late deposit). Terminal. */
  'refunded',
  /** Could not proceed (deposit reverted, payout failed); an operator looks at it. Terminal. */
  'failed',
  /** Risk hold; an operator resolves it with `npm run ops -- exchange resolve <id> --to <state>`. */
  'suspended',
] as const;
export type ExchangeState = (typeof exchangeStates)[number];

export const exchangeTransitions: Readonly<Record<ExchangeState, readonly ExchangeState[]>> = {
  new: ['waiting', 'failed'],
  waiting: ['confirming', 'expired', 'suspended', 'failed'],
  confirming: ['exchanging', 'suspended', 'failed'],
  exchanging: ['sending', 'refunded', 'suspended', 'failed'],
  sending: ['completed', 'failed'],
  completed: [],
  // A deposit that arrives after the deadline is returned, never exchanged; one mined before the
  // deadline (by block time) but seen after the expiry is the order's deposit (migration 0046).
  expired: ['refunded', 'confirming'],
  refunded: [],
  failed: [],
  // The operator releases a hold back into the flow, or ends it.
  suspended: ['waiting', 'confirming', 'exchanging', 'refunded', 'failed'],
};

/** States an order never leaves on its own (expired only by a late deposit). */
export const terminalStates: readonly ExchangeState[] = ['completed', 'expired', 'refunded', 'failed'];

export function isExchangeState(value: string): value is ExchangeState {
  return (exchangeStates as readonly string[]).includes(value);
}

export function canTransition(from: ExchangeState, to: ExchangeState): boolean {
  return exchangeTransitions[from].includes(to);
}

/** Every allowed (from, to) pair, e.g. for seeding the database table. */
export function allowedPairs(): Array<[ExchangeState, ExchangeState]> {
  return exchangeStates.flatMap((from) =>
    exchangeTransitions[from].map((to): [ExchangeState, ExchangeState] => [from, to]),
  );
}
