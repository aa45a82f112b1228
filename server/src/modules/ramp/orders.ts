import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError, NotFoundError, ValidationError } from '../../errors/app-error.ts';
import { assertPayoutMethodAllowlisted } from '../allowlist/policy.ts';
import type { Client } from '../auth/client.ts';
import type { FundPasswordService } from '../auth/fund-password-service.ts';
import type { VerificationCodes } from '../auth/verification-codes.ts';
import type { CoinCode, NetworkCode } from '../catalogue/catalogue.ts';
import { depositAddressFor } from '../deposits/addresses.ts';
import { parseBound } from '../history/service.ts';
import { InsufficientBalanceError } from '../ledger/errors.ts';
import { lockFunds } from '../ledger/operations.ts';
import type { SecondFactors } from '../security/factors-service.ts';
import { assertWithinOutflowBudget, lockOutflows, type OutflowBudget } from '../withdrawals/outflow-budget.ts';
import { assertOutflowAllowed } from '../withdrawals/outflow-holds.ts';
import { verifyWalletAction } from '../withdrawals/verification.ts';
import { cancelPendingSell } from './cancel.ts';
import type { MoonPayClient } from './moonpay/client.ts';
import { callProvider } from './provider-call.ts';
import { attachSellDeposit } from './provider-events.ts';
import { requireRules, userRules } from './quotes.ts';
import { findOrder, findOrderByKey, type OrderRow, takeQuote } from './repository.ts';
import type { OrdersQuery, PlaceOrder, RampOrder } from './schemas.ts';
import { checkoutUrl, orderViews } from './views.ts';

export interface OrderDeps {
  db: Kysely<Database>;
  now: () => Date;
  provider: () => MoonPayClient | null;
  xpubs: Partial<Record<NetworkCode, string>>;
  checkoutWindowMs: number;
  codes: VerificationCodes;
  fundPassword: FundPasswordService;
  factors: SecondFactors;
  /** The USD review budget a sell shares with withdrawals and sends (withdrawals/outflow-budget.ts). */
  budget: OutflowBudget;
}

export interface Caller {
  userId: string;
  origin: string;
  /** Who asks (IP for the code and fund-password throttles). */
  client: Client;
}

const LIST_LIMIT_DEFAULT = 20;

export function createOrderService(deps: OrderDeps) {
  const { db } = deps;

  function client(): MoonPayClient {
    const c = deps.provider();
    if (!c) throw new AppError('RAMP_PROVIDER_UNAVAILABLE', 'Service communication failed');
    return c;
  }

  async function depositAddress(userId: string, network: string): Promise<string> {
    const xpub = deps.xpubs[network as NetworkCode];
    if (!xpub) throw new AppError('RAMP_PAIR_UNSUPPORTED', `No deposit address on ${network}`);
    return depositAddressFor(db, userId, network as NetworkCode, xpub);
  }

  async function payoutLabel(order: OrderRow): Promise<string | undefined> {
    if (!order.payout_method_id) return undefined;
    const m = await db
      .selectFrom('payment_methods')
      .select(['kind', 'shown'])
      .where('id', '=', order.payout_method_id)
      .executeTakeFirst();
    if (!m) return undefined;
    const shown = Object.values(m.shown)
      .filter((v) => typeof v === 'string')
      .slice(0, 3)
      .join(' · ');
    return `${m.kind} ${shown}`.slice(0, 120);
  }

  /**
   * The orders as the API answers them. A pending sell's signed checkout link is in the answer only
   * when `revealSell` (the POST that placed it, or its idempotent replay): the link lets whoever opens it
   * complete the sell at the provider, so a stolen session reading GET /ramp/orders must not find it
   * (review of issue 38, item 2). The placing browser keeps it; otherwise the owner cancels and sells
   * again. A buy's link is answered always: completing a buy only pays coins to the owner's wallet.
   */
  async function views(rows: OrderRow[], caller: Caller, revealSell = false): Promise<RampOrder[]> {
    const c = deps.provider();
    const sells = revealSell ? rows.filter((r) => r.state === 'pending' && r.side === 'sell') : [];
    const contexts = new Map<string, string | undefined>();
    const refund = new Map<string, string>();
    for (const r of sells) {
      contexts.set(r.id, await payoutLabel(r));
      refund.set(r.id, await depositAddress(r.user_id, r.network));
    }
    return orderViews(db, rows, {
      sandbox: c?.kind === 'sandbox',
      checkout: (r) =>
        c && (r.side === 'buy' || refund.has(r.id))
          ? checkoutUrl(c, r, {
              origin: caller.origin,
              payoutLabel: contexts.get(r.id),
              refundAddress: refund.get(r.id),
            })
          : null,
    });
  }

  async function checkPayoutMethod(userId: string, id: string | undefined, accepted: readonly string[]) {
    const method = id
      ? await db
          .selectFrom('payment_methods')
          .select(['id', 'kind', 'active'])
          .where('id', '=', id)
          .where('user_id', '=', userId)
          .executeTakeFirst()
      : undefined;
    const chatOnly = accepted.length === 1 && accepted[0] === 'chat_app';
    if (method?.active && accepted.includes(method.kind)) return method;
    if (chatOnly) {
      throw new AppError('RAMP_CHAT_APP_ONLY', 'Buyer supports only the chat-app payment method: add and activate it');
    }
    throw new AppError('VALIDATION_FAILED', 'Choose one of your active payment methods', {
      details: [
        { field: 'payoutMethodId', message: 'is not an active payment method the buyer accepts', rule: 'enum' },
      ],
    });
  }

  /**
   * A sell sends the coins out as an approved withdrawal to the provider, so it meets what a
   * withdrawal meets: the outflow holds (deep-reorg freeze, 24 h after a password or fund-password
   * change) and the fund password plus a `withdraw` e-mail code. A stolen session alone cannot sell.
   * With the withdrawal allowlist on, the payout method must be past its hold, as an address must.
   */
  async function verifySell(caller: Caller, body: PlaceOrder, methodId: string) {
    await assertOutflowAllowed(db, caller.userId, deps.now());
    // The allowlist covers payout methods too (review of issue 31, F1): checked before the code is spent.
    await assertPayoutMethodAllowlisted(db, caller.userId, methodId, deps.now());
    if (!body.emailCode)
      throw new ValidationError('The e-mail code is required', [
        { field: 'emailCode', message: 'is required', rule: 'required' },
      ]);
    return verifyWalletAction(
      deps,
      caller.client,
      caller.userId,
      {
        fundPassword: body.fundPassword,
        emailCode: body.emailCode,
        totpCode: body.totpCode,
        recoveryCode: body.recoveryCode,
        passkey: body.passkey,
      },
      'withdraw',
    );
  }

  return {
    async place(caller: Caller, body: PlaceOrder): Promise<RampOrder> {
      const earlier = await findOrderByKey(db, caller.userId, body.idempotencyKey);
      // The same key is the placing browser asking again (a double submit): it may have the link again.
      if (earlier) return (await views([earlier], caller, true))[0] as RampOrder;
      const rules = requireRules(await userRules(db, caller.userId));
      client();
      const quote = await db
        .selectFrom('ramp_quotes')
        .selectAll()
        .where('id', '=', body.quoteId)
        .where('user_id', '=', caller.userId)
        .executeTakeFirst();
      if (!quote) throw new NotFoundError('Quote not found');
      if (quote.fiat !== rules.fiat)
        throw new AppError('RAMP_COUNTRY_UNSUPPORTED', 'Third-party payment only in Brazil and India');
      const method =
        quote.side === 'sell' ? await checkPayoutMethod(caller.userId, body.payoutMethodId, quote.payout_kinds) : null;
      const code = method ? await verifySell(caller, body, method.id) : null;
      const wallet = quote.side === 'buy' ? await depositAddress(caller.userId, quote.network) : null;
      const id = randomUUID();
      const at = deps.now();
      const row = await db.transaction().execute(async (trx) => {
        // A sell has no review step: over the day's budget it is refused, like a send. Checked under
        // the user's outflow lock, so two sells at once cannot both fit in what remains.
        const valueUsdCents =
          quote.side === 'sell'
            ? deps.budget.valueUsdCents(
                quote.coin as CoinCode,
                BigInt(quote.crypto_amount_minor) + BigInt(quote.network_fee_minor),
              )
            : null;
        if (valueUsdCents !== null) await assertWithinOutflowBudget(trx, deps.budget, caller.userId, valueUsdCents, at);
        if (method) {
          // Again under the outflow lock, which allowlist toggles and payout-method changes also take:
          // a method switched back on, or the allowlist turned on, since verifySell is seen here.
          await lockOutflows(trx, caller.userId);
          await assertPayoutMethodAllowlisted(trx, caller.userId, method.id, at);
        }
        const taken = await takeQuote(trx, body.quoteId, caller.userId);
        if (!taken || taken.expires_at.getTime() <= at.getTime()) {
          throw new AppError('RAMP_QUOTE_EXPIRED', 'Rate expired and updated, please confirm the new rate');
        }
        await trx.updateTable('ramp_quotes').set({ used_at: at }).where('id', '=', taken.id).execute();
        const inserted = await trx
          .insertInto('ramp_orders')
          .values({
            id,
            user_id: caller.userId,
            side: taken.side,
            idempotency_key: body.idempotencyKey,
            quote_id: taken.id,
            coin: taken.coin,
            network: taken.network,
            fiat: taken.fiat,
            payment_method: method?.kind ?? taken.payment_method,
            payout_method_id: method?.id ?? null,
            fiat_amount_minor: taken.fiat_amount_minor,
            crypto_amount_minor: taken.crypto_amount_minor,
            fee_fiat_minor: taken.fee_fiat_minor,
            network_fee_minor: taken.network_fee_minor,
            wallet_address: wallet,
            value_usd_cents: valueUsdCents === null ? null : valueUsdCents.toString(),
            checkout_expires_at: new Date(at.getTime() + deps.checkoutWindowMs),
            created_at: at,
            updated_at: at,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        if (taken.side === 'sell') await lockSell(trx, inserted, at);
        // The code authorises this one sell: used up with it, or not at all.
        if (code) await deps.codes.consume(trx, code);
        return inserted;
      });
      return (await views([row], caller, true))[0] as RampOrder;
    },

    /** The owner ends a pending sell (its checkout not done): expired, `cancelled_in_app`, coins unlocked. */
    async cancel(caller: Caller, id: string): Promise<RampOrder> {
      const row = await findOrder(db, id);
      if (!row || row.user_id !== caller.userId) throw new NotFoundError('Order not found');
      const cancelled = await db.transaction().execute((trx) => cancelPendingSell(trx, caller.userId, id, deps.now()));
      if (!cancelled) throw new AppError('CONFLICT', 'Only a sell waiting for its checkout can be cancelled');
      return (await views([cancelled], caller))[0] as RampOrder;
    },

    async get(caller: Caller, id: string): Promise<RampOrder> {
      const row = await findOrder(db, id);
      if (!row || row.user_id !== caller.userId) throw new NotFoundError('Order not found');
      return (await views([row], caller))[0] as RampOrder;
    },

    async list(caller: Caller, query: OrdersQuery) {
      const from = parseBound(query.from, 'from');
      const to = parseBound(query.to, 'to');
      if (from && to && from >= to) {
        throw new AppError('DATE_RANGE_INVALID', 'The start date may not be after the end date', {
          details: [{ field: 'from', message: 'is after to', rule: 'range' }],
        });
      }
      const limit = query.limit ?? LIST_LIMIT_DEFAULT;
      let q = db.selectFrom('ramp_orders').selectAll().where('user_id', '=', caller.userId);
      if (query.side) q = q.where('side', '=', query.side);
      if (from) q = q.where('created_at', '>=', from);
      if (to) q = q.where('created_at', '<', to);
      if (query.before) q = q.where('created_at', '<', new Date(query.before));
      const rows = await q
        .orderBy('created_at', 'desc')
        .limit(limit + 1)
        .execute();
      const page = rows.slice(0, limit);
      const last = page.at(-1);
      return {
        items: await views(page, caller),
        next: rows.length > limit && last ? last.created_at.toISOString() : null,
      };
    },

    /** The provider's checkout sent the user back with its sell transaction: read it from the provider, never from the URL. */
    async sellDeposit(caller: Caller, id: string, transactionId: string): Promise<RampOrder> {
      const row = await findOrder(db, id);
      if (!row || row.user_id !== caller.userId || row.side !== 'sell') throw new NotFoundError('Order not found');
      const tx = await callProvider(() => client().sellTransaction(transactionId));
      if (tx.externalTransactionId !== row.id) throw new NotFoundError('Order not found');
      await attachSellDeposit(db, deps.now(), tx);
      return this.get(caller, id);
    },
  };
}

/** The coins sold (plus the network fee of sending them) leave the available balance now. */
async function lockSell(trx: Parameters<typeof lockFunds>[0], order: OrderRow, at: Date) {
  const amountMinor = BigInt(order.crypto_amount_minor) + BigInt(order.network_fee_minor);
  try {
    await lockFunds(
      trx,
      { idempotencyKey: `ramp:${order.id}:lock`, userId: order.user_id, asset: order.coin as CoinCode, amountMinor },
      at,
    );
  } catch (err) {
    if (err instanceof InsufficientBalanceError) {
      throw new AppError('AMOUNT_EXCEEDS_AVAILABLE', 'Amount exceeds the maximum available');
    }
    throw err;
  }
}
