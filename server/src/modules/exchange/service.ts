import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError, NotFoundError, ServiceUnavailableError, ValidationError } from '../../errors/app-error.ts';
import { decodeTimeIdCursor, encodeTimeIdCursor } from '../../http/cursor.ts';
import { type CoinNetwork, coinNetworks, type NetworkCode } from '../catalogue/catalogue.ts';
import type { PlatformAddresses } from '../catalogue/platform-addresses.ts';
import { checkedAddresses } from './addresses.ts';
import { deriveOrderDepositAddress } from './deposit-address.ts';
import { assertUnpaidBelowLimit, lockFixedRate } from './order-rules.ts';
import { type ExchangeAvailability, iso, resolvePair, toApiOrder } from './order-view.ts';
import {
  FIXED_WINDOW_MS,
  FLOAT_WINDOW_MS,
  formatRate,
  limitsFor,
  midRateScaled,
  receiveFor,
  type UsdPrices,
} from './pricing.ts';
import { findOrder, insertRateLock, listOrders, nextDepositIndex } from './repository.ts';
import type {
  CreateOrderRequest,
  ExchangeOrder,
  ExchangePairs,
  ExchangeRate,
  OrderList,
  RateRequest,
} from './schemas.ts';
import { transitionOrder } from './transition.ts';

export type { ExchangeAvailability } from './order-view.ts';

export interface ExchangeServiceOptions {
  db: Kysely<Database>;
  now: () => Date;
  /** USD prices (modules/prices); null: only stablecoin pairs can be priced. */
  prices: UsdPrices | null;
  /** Account xpubs per network (modules/chain keys); null: orders cannot get a deposit address. */
  xpubs: Partial<Record<NetworkCode, string>> | null;
  /** How long a fixed rate holds (the deposit window); default FIXED_WINDOW_MS (20 minutes). */
  fixedWindowMs?: number;
  /** How long a float order waits for its deposit before it expires; default FLOAT_WINDOW_MS (24 hours). */
  floatWindowMs?: number;
  /** What the engine can serve now (see exchange-module.ts); unset: every catalogue pair. */
  availability?: ExchangeAvailability;
  /** Unpaid (new or waiting) orders a user may hold at once; each one watches a new address. */
  maxUnpaidOrders?: number;
  /** The platform's own addresses (hot wallets, token contracts, order deposit addresses): refused as receive/refund addresses. */
  platform?: PlatformAddresses;
}

/** Default cap on a user's unpaid orders (EXCHANGE_MAX_UNPAID_ORDERS). */
export const MAX_UNPAID_ORDERS = 5;

export interface ExchangeService {
  /** Which sides an order can have right now (the catalogue filtered by availability). */
  pairs(): ExchangePairs;
  rate(userId: string, request: RateRequest): Promise<ExchangeRate>;
  createOrder(userId: string, request: CreateOrderRequest): Promise<ExchangeOrder>;
  getOrder(userId: string, id: string): Promise<ExchangeOrder>;
  listOrders(userId: string, query: { cursor?: string; limit?: number }): Promise<OrderList>;
}

const LIST_LIMIT_DEFAULT = 20;

export function createExchangeService(options: ExchangeServiceOptions): ExchangeService {
  const { db, now } = options;

  const prices: UsdPrices = {
    price(coin, currency) {
      if (!options.prices) throw new AppError('EXCHANGE_RATE_UNAVAILABLE', `No price source for ${coin}`);
      return options.prices.price(coin, currency);
    },
  };

  /** Rate, breakdown and limits for an amount; refuses amounts outside the limits. */
  function price(request: RateRequest, rateScaled?: bigint) {
    const { send, receive } = resolvePair(request, options.availability);
    const amountMinor = BigInt(request.amountMinor);
    const rate = rateScaled ?? midRateScaled(send.coin, receive.coin, prices);
    const limits = limitsFor(send, prices);
    const breakdown = receiveFor(amountMinor, rate, send, receive, request.rateType);
    if (amountMinor < limits.minMinor || amountMinor > limits.maxMinor || breakdown.receiveMinor <= 0n) {
      throw new AppError('EXCHANGE_AMOUNT_OUT_OF_RANGE', 'Amount outside the limits', {
        details: [
          {
            field: 'amountMinor',
            message: `between ${limits.minMinor} and ${limits.maxMinor} minor units`,
            rule: 'range',
          },
        ],
      });
    }
    return { send, receive, amountMinor, rate, limits, breakdown };
  }

  return {
    pairs() {
      const a = options.availability;
      const sendable = (p: CoinNetwork) =>
        p.depositEnabled && (!a || (a.canObserveDeposit(p.coin, p.network) && a.canPayOut(p.coin, p.network)));
      const payable = (p: CoinNetwork) => p.withdrawEnabled && (!a || a.canPayOut(p.coin, p.network));
      const side = (p: CoinNetwork) => ({ coin: p.coin, network: p.network });
      return { send: coinNetworks.filter(sendable).map(side), receive: coinNetworks.filter(payable).map(side) };
    },

    async rate(userId, request) {
      const priced = price(request);
      const at = now();
      let rateId: string | null = null;
      let expiresAt: Date | null = null;
      if (request.rateType === 'fixed') {
        expiresAt = new Date(at.getTime() + (options.fixedWindowMs ?? FIXED_WINDOW_MS));
        const lock = await insertRateLock(db, {
          user_id: userId,
          send_coin: request.sendCoin,
          send_network: request.sendNetwork,
          receive_coin: request.receiveCoin,
          receive_network: request.receiveNetwork,
          send_amount_minor: priced.amountMinor.toString(),
          rate_scaled: priced.rate.toString(),
          created_at: at,
          expires_at: expiresAt,
        });
        rateId = lock.id;
      }
      return {
        sendCoin: request.sendCoin,
        sendNetwork: request.sendNetwork,
        receiveCoin: request.receiveCoin,
        receiveNetwork: request.receiveNetwork,
        rateType: request.rateType,
        rate: formatRate(priced.rate),
        sendAmountMinor: priced.amountMinor.toString(),
        estimatedReceiveMinor: priced.breakdown.receiveMinor.toString(),
        serviceChargeMinor: priced.breakdown.serviceChargeMinor.toString(),
        networkFeeMinor: priced.breakdown.networkFeeMinor.toString(),
        minAmountMinor: priced.limits.minMinor.toString(),
        maxAmountMinor: priced.limits.maxMinor.toString(),
        rateId,
        expiresAt: iso(expiresAt),
      };
    },

    async createOrder(userId, request) {
      resolvePair(request, options.availability);
      const { receiveAddress, refundAddress } = await checkedAddresses(request, options.platform);
      if (request.rateType === 'fixed') {
        const missing = [
          ...(refundAddress === null
            ? [{ field: 'refundAddress', message: 'required for a fixed rate', rule: 'required' }]
            : []),
          ...(request.rateId === undefined
            ? [{ field: 'rateId', message: 'required for a fixed rate', rule: 'required' }]
            : []),
        ];
        if (missing.length > 0) throw new ValidationError('A fixed rate needs a rate id and a refund address', missing);
      }
      const xpub = options.xpubs?.[request.sendNetwork];
      if (!xpub) throw new ServiceUnavailableError(`No deposit keys for ${request.sendNetwork}`);

      const row = await db.transaction().execute(async (trx) => {
        const at = now();
        await assertUnpaidBelowLimit(trx, userId, options.maxUnpaidOrders ?? MAX_UNPAID_ORDERS);
        let lockedRate: bigint | undefined;
        let deadline = new Date(at.getTime() + (options.floatWindowMs ?? FLOAT_WINDOW_MS));
        let rateLockId: string | null = null;
        if (request.rateType === 'fixed') {
          const lock = await lockFixedRate(trx, userId, request, at);
          lockedRate = BigInt(lock.rate_scaled);
          deadline = lock.expires_at;
          rateLockId = lock.id;
        }
        const priced = price(request, lockedRate);
        const { id } = await trx
          .insertInto('exchange_orders')
          .values({
            user_id: userId,
            state_reason: null,
            rate_type: request.rateType,
            send_coin: request.sendCoin,
            send_network: request.sendNetwork,
            receive_coin: request.receiveCoin,
            receive_network: request.receiveNetwork,
            send_amount_minor: priced.amountMinor.toString(),
            rate_scaled: priced.rate.toString(),
            estimated_receive_minor: priced.breakdown.receiveMinor.toString(),
            service_charge_minor: priced.breakdown.serviceChargeMinor.toString(),
            network_fee_minor: priced.breakdown.networkFeeMinor.toString(),
            rate_lock_id: rateLockId,
            deadline_at: deadline,
            receive_address: receiveAddress,
            refund_address: refundAddress,
            created_at: at,
            updated_at: at,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        const index = await nextDepositIndex(trx);
        const depositAddress = deriveOrderDepositAddress(request.sendNetwork, xpub, index);
        return transitionOrder(trx, id, 'waiting', {
          now: at,
          reason: 'deposit_address_assigned',
          patch: { deposit_address: depositAddress, deposit_index: index },
        });
      });
      return toApiOrder(row);
    },

    async getOrder(userId, id) {
      const row = await findOrder(db, id);
      if (!row || row.user_id !== userId) throw new NotFoundError('Exchange order not found');
      return toApiOrder(row);
    },

    async listOrders(userId, query) {
      const limit = query.limit ?? LIST_LIMIT_DEFAULT;
      const rows = await listOrders(db, userId, {
        limit: limit + 1,
        ...(query.cursor ? { before: decodeTimeIdCursor(query.cursor) } : {}),
      });
      const page = rows.slice(0, limit);
      const last = page.at(-1);
      return {
        items: page.map(toApiOrder),
        nextCursor:
          rows.length > limit && last ? encodeTimeIdCursor({ createdAt: last.created_at, id: last.id }) : null,
      };
    },
  };
}
