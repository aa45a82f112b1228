import { Agent, request } from 'undici';
import type { Rational } from '../../prices/rational.ts';
import {
  decimalOf,
  type Json,
  objectOf,
  optionalDecimalOf,
  optionalStringOf,
  ProviderAnswerError,
  parseAnswer,
  stringOf,
} from './decimals.ts';
import { signUrl } from './signing.ts';

/**
 * Adapter for MoonPay's documented Ramps API (https://dev.moonpay.com):
 *   GET /v3/currencies/{code}/buy_quote   ?apiKey&baseCurrencyCode&baseCurrencyAmount&paymentMethod&areFeesIncluded
 *   GET /v3/currencies/{code}/sell_quote  ?apiKey&quoteCurrencyCode&baseCurrencyAmount&payoutMethod
 *   GET /v3/currencies/{code}/limits      ?apiKey&baseCurrencyCode&paymentMethod
 *   GET /v1/transactions/ext/{externalTransactionId}   (Authorization: Api-Key <secret>)
 *   GET /v3/sell_transactions/{id}                     (Authorization: Api-Key <secret>)
 * and the widget URLs (buy and sell), signed with the secret key. The embedded sandbox speaks the
 * same paths and shapes, so one adapter serves both (`kind` says which one it talks to).
 */

export interface MoonPayConfig {
  /** https://api.moonpay.com, or the sandbox's http://127.0.0.1:PORT */
  apiUrl: string;
  /** https://buy.moonpay.com / https://sell.moonpay.com, or the sandbox's checkout pages. */
  buyWidgetUrl: string;
  sellWidgetUrl: string;
  publishableKey: string;
  secretKey: string;
  webhookKey: string;
  kind: 'live' | 'sandbox';
  timeoutMs?: number;
}

export class ProviderError extends Error {
  readonly status: number | null;

  constructor(message: string, status: number | null, options?: { cause?: unknown }) {
    super(message, options);
    this.status = status;
    this.name = 'ProviderError';
  }
}

export interface BuyQuote {
  fiatAmount: Rational;
  cryptoAmount: Rational;
  fee: Rational;
  networkFee: Rational;
  total: Rational;
}
export interface SellQuote {
  cryptoAmount: Rational;
  fiatAmount: Rational;
  fee: Rational;
  /** Sandbox only: payout kinds the counterparty accepts (absent from the live API: all). */
  payoutKinds: string[] | null;
}
export interface Limits {
  fiatMin: Rational;
  fiatMax: Rational;
  cryptoMin: Rational;
  cryptoMax: Rational;
}
export interface ProviderTransaction {
  id: string;
  status: string;
  externalTransactionId: string | null;
  cryptoTransactionId: string | null;
  depositWalletAddress: string | null;
  failureReason: string | null;
  /**
   * The crypto side of a sell as the provider holds it: its currency code (`baseCurrency.code`, or
   * the sandbox's `baseCurrencyCode`), network (`baseCurrency.metadata.networkCode`, when sent) and
   * amount (`baseCurrencyAmount`). A sell's payout is placed only when these match the order.
   */
  baseCurrencyCode: string | null;
  baseNetworkCode: string | null;
  baseCurrencyAmount: Rational | null;
}

export type MoonPayClient = ReturnType<typeof createMoonPayClient>;

/** Connections kept open to the provider (a quote screen asks about once a second per user). */
const CONNECTIONS_MAX = 32;

export function createMoonPayClient(config: MoonPayConfig) {
  const timeoutMs = config.timeoutMs ?? 5000;
  // undici's pooled request: keep-alive connections and about half the per-call cost of fetch.
  const pool = new Agent({
    connections: CONNECTIONS_MAX,
    keepAliveTimeout: 30_000,
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  });

  async function get(path: string, query: Record<string, string>, auth: boolean): Promise<unknown> {
    const url = new URL(path, config.apiUrl);
    for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
    if (!auth) url.searchParams.set('apiKey', config.publishableKey);
    const headers: Record<string, string> = { accept: 'application/json' };
    if (auth) headers.authorization = `Api-Key ${config.secretKey}`;
    let status: number;
    let text: string;
    try {
      const response = await request(url, { headers, dispatcher: pool });
      status = response.statusCode;
      text = await response.body.text();
    } catch (err) {
      throw new ProviderError('payment provider unreachable', null, { cause: err });
    }
    if (status < 200 || status > 299) throw new ProviderError(providerMessage(text), status);
    return parseAnswer(text);
  }

  return {
    kind: config.kind,
    webhookKey: config.webhookKey,
    /** Closes the kept-alive connections (shutdown, tests). */
    close: () => pool.close(),

    async buyQuote(q: { code: string; fiat: string; fiatAmount: string; method: string }): Promise<BuyQuote> {
      const a = (await get(
        `/v3/currencies/${q.code}/buy_quote`,
        {
          baseCurrencyCode: q.fiat.toLowerCase(),
          baseCurrencyAmount: q.fiatAmount,
          paymentMethod: q.method,
          areFeesIncluded: 'true',
        },
        false,
      )) as Json;
      return {
        fiatAmount: decimalOf(a, 'baseCurrencyAmount'),
        cryptoAmount: decimalOf(a, 'quoteCurrencyAmount'),
        fee: decimalOf(a, 'feeAmount'),
        networkFee: optionalDecimalOf(a, 'networkFeeAmount') ?? { num: 0n, den: 1n },
        total: decimalOf(a, 'totalAmount'),
      };
    },

    async sellQuote(q: { code: string; fiat: string; cryptoAmount: string; payout: string }): Promise<SellQuote> {
      const a = (await get(
        `/v3/currencies/${q.code}/sell_quote`,
        {
          quoteCurrencyCode: q.fiat.toLowerCase(),
          baseCurrencyAmount: q.cryptoAmount,
          payoutMethod: q.payout,
        },
        false,
      )) as Json;
      const kinds = a.payoutMethods;
      return {
        cryptoAmount: decimalOf(a, 'baseCurrencyAmount'),
        fiatAmount: decimalOf(a, 'quoteCurrencyAmount'),
        fee: decimalOf(a, 'feeAmount'),
        payoutKinds: Array.isArray(kinds) ? kinds.filter((k): k is string => typeof k === 'string').slice(0, 8) : null,
      };
    },

    async limits(q: { code: string; fiat: string; method: string }): Promise<Limits> {
      const a = (await get(
        `/v3/currencies/${q.code}/limits`,
        {
          baseCurrencyCode: q.fiat.toLowerCase(),
          paymentMethod: q.method,
        },
        false,
      )) as Json;
      const fiat = objectOf(a, 'baseCurrency');
      const crypto = objectOf(a, 'quoteCurrency');
      return {
        fiatMin: decimalOf(fiat, 'minBuyAmount'),
        fiatMax: decimalOf(fiat, 'maxBuyAmount'),
        cryptoMin: decimalOf(crypto, 'minBuyAmount'),
        cryptoMax: decimalOf(crypto, 'maxBuyAmount'),
      };
    },

    async buyTransactionByExternalId(externalId: string): Promise<ProviderTransaction | null> {
      const a = await get(`/v1/transactions/ext/${encodeURIComponent(externalId)}`, {}, true);
      const list = Array.isArray(a) ? a : [];
      const first = list[0];
      return first ? toTransaction(first as Json) : null;
    },

    async sellTransaction(id: string): Promise<ProviderTransaction> {
      return toTransaction((await get(`/v3/sell_transactions/${encodeURIComponent(id)}`, {}, true)) as Json);
    },

    /** The signed widget URL; `params` in a stable order, values URL-encoded by URLSearchParams. */
    widgetUrl(flow: 'buy' | 'sell', params: Record<string, string>): string {
      const base = flow === 'buy' ? config.buyWidgetUrl : config.sellWidgetUrl;
      const query = new URLSearchParams({ apiKey: config.publishableKey, ...params });
      return signUrl(`${base}?${query.toString()}`, config.secretKey);
    },
  };
}

export function toTransaction(a: Json): ProviderTransaction {
  return {
    id: stringOf(a, 'id'),
    status: stringOf(a, 'status'),
    externalTransactionId: optionalStringOf(a, 'externalTransactionId'),
    cryptoTransactionId: optionalStringOf(a, 'cryptoTransactionId'),
    depositWalletAddress: optionalStringOf(a, 'depositWalletAddress'),
    failureReason: optionalStringOf(a, 'failureReason'),
    ...baseCurrencyOf(a),
  };
}

function baseCurrencyOf(
  a: Json,
): Pick<ProviderTransaction, 'baseCurrencyCode' | 'baseNetworkCode' | 'baseCurrencyAmount'> {
  const base = a.baseCurrency;
  const baseObject = typeof base === 'object' && base !== null && !Array.isArray(base) ? (base as Json) : null;
  const metadata = baseObject?.metadata;
  const metadataObject =
    typeof metadata === 'object' && metadata !== null && !Array.isArray(metadata) ? (metadata as Json) : null;
  let amount: Rational | null = null;
  try {
    amount = optionalDecimalOf(a, 'baseCurrencyAmount');
  } catch (err) {
    // An unreadable amount is no amount: a sell's payout then refuses (it must match the order).
    if (!(err instanceof ProviderAnswerError)) throw err;
  }
  return {
    baseCurrencyCode:
      (baseObject ? optionalStringOf(baseObject, 'code') : null) ?? optionalStringOf(a, 'baseCurrencyCode'),
    baseNetworkCode: metadataObject ? optionalStringOf(metadataObject, 'networkCode') : null,
    baseCurrencyAmount: amount,
  };
}

/** MoonPay errors are `{ "message": "...", "type": "BadRequestError" }`. */
function providerMessage(text: string): string {
  try {
    const body = parseAnswer(text);
    return typeof body.message === 'string' ? body.message.slice(0, 300) : 'payment provider refused the request';
  } catch (err) {
    if (err instanceof ProviderAnswerError) return 'payment provider refused the request';
    throw err;
  }
}
