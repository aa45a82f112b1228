import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { findCoinNetwork, nativeCoinOf } from '../catalogue/catalogue.ts';
import type { EvmNetwork } from '../catalogue/chains-file.ts';
import { runtimePair } from '../catalogue/runtime.ts';
import type { EvmChainRuntime } from '../chain/chain-config.ts';
import { createExchangeEngine, type ExchangeEngine } from './engine.ts';
import { DepositMismatchError, IllegalTransitionError } from './errors.ts';
import { evmOrderDeposits } from './evm-deposits.ts';
import { withdrawalPayouts } from './payouts.ts';
import type { UsdPrices } from './pricing.ts';
import type { ExchangeAvailability } from './service.ts';

/**
 * What the running system can serve: deposits the engine reads (EVM token transfers and native coins,
 * evm-deposits.ts)
 * and payouts the signer sends (the runtime catalogue's withdrawEnabled: a running EVM chain, a
 * deployed token, a signer process).
 */
export function exchangeAvailability(
  evmChains: () => Partial<Record<EvmNetwork, EvmChainRuntime | undefined>>,
  signerRunning: () => boolean,
): ExchangeAvailability {
  return {
    canObserveDeposit(coin, network) {
      if (network !== 'ethereum' && network !== 'bsc') return false;
      const runtime = evmChains()[network];
      // Native coin: the block scanner (evm-native-deposits.ts); tokens: their Transfer logs.
      return runtime !== undefined && (coin === nativeCoinOf(network) || runtime.tokens[coin] !== undefined);
    },
    canPayOut(coin, network) {
      const pair = findCoinNetwork(coin, network);
      if (!pair) return false;
      const chains = evmChains();
      return runtimePair(pair, { ethereum: chains.ethereum, bsc: chains.bsc }, signerRunning()).withdrawEnabled;
    },
  };
}

export interface ExchangeEngineStartOptions {
  db: Kysely<Database>;
  prices: UsdPrices;
  evmChains: () => Partial<Record<EvmNetwork, EvmChainRuntime | undefined>>;
  intervalMs?: number;
  /** EXCHANGE_LATE_DEPOSIT_WATCH_MS: how long an expired order's address is still watched. */
  lateDepositWatchMs?: number;
  log: {
    warn(details: Record<string, unknown>, msg: string): void;
    error(details: Record<string, unknown>, msg: string): void;
  };
}

/**
 * Server start-up of the exchange engine: order deposits read from the EVM chains, payouts handed to
 * the signer as approved withdrawals, one loop in this process. Returns a closer for main.
 */
export function startExchangeEngine(options: ExchangeEngineStartOptions): { name: string; close: () => Promise<void> } {
  const now = () => new Date();
  const lateWatch = options.lateDepositWatchMs === undefined ? {} : { lateDepositWatchMs: options.lateDepositWatchMs };
  const engine: ExchangeEngine = createExchangeEngine({
    db: options.db,
    now,
    prices: options.prices,
    deposits: evmOrderDeposits(options.evmChains, { db: options.db, now, ...lateWatch }),
    payouts: withdrawalPayouts(options.db, now),
    ...(options.intervalMs === undefined ? {} : { intervalMs: options.intervalMs }),
    ...lateWatch,
    onError: (err, orderId) => {
      // A transition the state table does not have is a defect of the engine, never a lost race: alert.
      if (err instanceof IllegalTransitionError) {
        options.log.error(
          { err, orderId, alert: 'exchange_illegal_transition' },
          'ALERT: exchange engine illegal transition',
        );
      } else if (err instanceof DepositMismatchError) {
        options.log.error(
          {
            err,
            orderId,
            alert: 'exchange_deposit_mismatch',
            recorded: err.recordedTxHash,
            observed: err.observedTxHash,
          },
          'ALERT: exchange order deposit differs from the recorded one',
        );
      } else options.log.warn({ err, orderId }, 'exchange engine step failed; retried next tick');
    },
  });
  engine.start();
  return { name: 'exchange engine', close: () => engine.stop() };
}
