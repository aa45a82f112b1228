import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../errors/app-error.ts';
import { type CoinCode, coinDecimals, findCoinNetwork, type NetworkCode } from '../catalogue/catalogue.ts';
import type { Rational } from '../prices/rational.ts';
import type { MoonPayClient } from './moonpay/client.ts';
import { FIAT_DECIMALS, moonPayCurrencyCode, type PayoutKind, type RampFiat } from './moonpay/codes.ts';
import { ceilMinor, floorMinor, minorToDecimal } from './moonpay/decimals.ts';
import { callProvider } from './provider-call.ts';
import { type CountryRules, countryRules } from './rules.ts';
import type { QuoteRequest, RampQuote } from './schemas.ts';

export interface QuoteDeps {
  db: Kysely<Database>;
  now: () => Date;
  provider: () => MoonPayClient | null;
  /** Networks whose coins can be delivered (a running chain). */
  networks: () => ReadonlySet<NetworkCode>;
  inrMinimumMinor: bigint;
  quoteTtlMs: number;
}

/** Provider limits change rarely: one look-up per currency, fiat and method a minute. */
const LIMITS_TTL_MS = 60_000;

export async function userRules(db: Kysely<Database>, userId: string): Promise<CountryRules | null> {
  const account = await db.selectFrom('accounts').select('country').where('user_id', '=', userId).executeTakeFirst();
  return account ? countryRules(account.country) : null;
}

export function requireRules(rules: CountryRules | null): CountryRules {
  if (!rules) throw new AppError('RAMP_COUNTRY_UNSUPPORTED', 'Third-party payment only in Brazil and India');
  return rules;
}

export function createQuoteService(deps: QuoteDeps) {
  const limitsCache = new Map<string, { at: number; value: Awaited<ReturnType<MoonPayClient['limits']>> }>();

  async function limitsOf(client: MoonPayClient, code: string, fiat: RampFiat, method: string) {
    const key = `${code}:${fiat}:${method}`;
    const hit = limitsCache.get(key);
    if (hit && Date.now() - hit.at < LIMITS_TTL_MS) return hit.value;
    const value = await callProvider(() => client.limits({ code, fiat, method }));
    if (limitsCache.size > 256) limitsCache.clear();
    limitsCache.set(key, { at: Date.now(), value });
    return value;
  }

  function pairCode(coin: CoinCode, network: NetworkCode): string {
    const code = moonPayCurrencyCode(coin, network);
    if (!code || !deps.networks().has(network) || !findCoinNetwork(coin, network)) {
      throw new AppError('RAMP_PAIR_UNSUPPORTED', `${coin} on ${network} cannot be bought or sold here`);
    }
    return code;
  }

  function outOfRange(amountMinor: bigint, min: bigint, max: bigint) {
    if (amountMinor < min) {
      throw new AppError('AMOUNT_BELOW_MINIMUM', 'Below minimum limit', {
        details: [{ field: 'amountMinor', message: min.toString(), rule: 'minimum' }],
      });
    }
    if (amountMinor > max) {
      throw new AppError('AMOUNT_ABOVE_MAXIMUM', 'Exceeds maximum limit', {
        details: [{ field: 'amountMinor', message: max.toString(), rule: 'maximum' }],
      });
    }
  }

  async function buy(client: MoonPayClient, rules: CountryRules, req: QuoteRequest, code: string) {
    if (!rules.buyMethods.includes(req.method as never)) throw methodError();
    const amountMinor = BigInt(req.amountMinor);
    const fd = FIAT_DECIMALS;
    if (rules.fiat === 'INR' && amountMinor < deps.inrMinimumMinor)
      outOfRange(amountMinor, deps.inrMinimumMinor, amountMinor);
    const limits = await limitsOf(client, code, rules.fiat, req.method);
    outOfRange(amountMinor, ceilMinor(limits.fiatMin, fd), floorMinor(limits.fiatMax, fd));
    const q = await callProvider(() =>
      client.buyQuote({ code, fiat: rules.fiat, fiatAmount: minorToDecimal(amountMinor, fd), method: req.method }),
    );
    return {
      fiatAmountMinor: amountMinor,
      cryptoAmountMinor: floorMinor(q.cryptoAmount, coinDecimals(req.coin)),
      feeFiatMinor: ceilMinor(sum(q.fee, q.networkFee), fd),
      networkFeeMinor: 0n,
      payoutKinds: [] as PayoutKind[],
    };
  }

  async function sell(client: MoonPayClient, rules: CountryRules, req: QuoteRequest, code: string) {
    if (!rules.payoutKinds.includes(req.method as never)) throw methodError();
    const amountMinor = BigInt(req.amountMinor);
    const decimals = coinDecimals(req.coin);
    const limits = await limitsOf(client, code, rules.fiat, 'credit_debit_card');
    outOfRange(amountMinor, ceilMinor(limits.cryptoMin, decimals), floorMinor(limits.cryptoMax, decimals));
    const q = await callProvider(() =>
      client.sellQuote({
        code,
        fiat: rules.fiat,
        cryptoAmount: minorToDecimal(amountMinor, decimals),
        payout: req.method,
      }),
    );
    const fiatAmountMinor = floorMinor(q.fiatAmount, FIAT_DECIMALS);
    if (fiatAmountMinor <= 0n) outOfRange(0n, 1n, 1n);
    const accepted = (q.payoutKinds ?? rules.payoutKinds).filter((k): k is PayoutKind =>
      rules.payoutKinds.includes(k as never),
    );
    const pair = findCoinNetwork(req.coin, req.network);
    return {
      fiatAmountMinor,
      cryptoAmountMinor: amountMinor,
      feeFiatMinor: ceilMinor(q.fee, FIAT_DECIMALS),
      networkFeeMinor: pair?.withdrawFeeMinor ?? 0n,
      payoutKinds: accepted,
    };
  }

  return {
    async quote(userId: string, req: QuoteRequest): Promise<RampQuote> {
      const rules = requireRules(await userRules(deps.db, userId));
      const client = deps.provider();
      if (!client) throw new AppError('SERVICE_UNAVAILABLE', 'Service communication failed');
      const code = pairCode(req.coin, req.network);
      const numbers = req.side === 'buy' ? await buy(client, rules, req, code) : await sell(client, rules, req, code);
      if (numbers.cryptoAmountMinor <= 0n) outOfRange(0n, 1n, 1n);
      const at = deps.now();
      const row = await deps.db
        .insertInto('ramp_quotes')
        .values({
          user_id: userId,
          side: req.side,
          coin: req.coin,
          network: req.network,
          fiat: rules.fiat,
          payment_method: req.method,
          fiat_amount_minor: numbers.fiatAmountMinor,
          crypto_amount_minor: numbers.cryptoAmountMinor,
          fee_fiat_minor: numbers.feeFiatMinor,
          network_fee_minor: numbers.networkFeeMinor,
          payout_kinds: numbers.payoutKinds,
          created_at: at,
          expires_at: new Date(at.getTime() + deps.quoteTtlMs),
        })
        .returning(['id', 'expires_at'])
        .executeTakeFirstOrThrow();
      return {
        id: row.id,
        side: req.side,
        coin: req.coin,
        network: req.network,
        fiat: rules.fiat,
        method: req.method,
        fiatAmountMinor: numbers.fiatAmountMinor.toString(),
        cryptoAmountMinor: numbers.cryptoAmountMinor.toString(),
        feeFiatMinor: numbers.feeFiatMinor.toString(),
        networkFeeMinor: numbers.networkFeeMinor.toString(),
        payoutKinds: numbers.payoutKinds,
        expiresAt: row.expires_at.toISOString(),
        sandbox: client.kind === 'sandbox',
      };
    },
  };
}

const sum = (a: Rational, b: Rational): Rational => ({ num: a.num * b.den + b.num * a.den, den: a.den * b.den });

const methodError = () =>
  new AppError('VALIDATION_FAILED', 'This payment method is not offered in your country', {
    details: [{ field: 'method', message: 'not offered in your country', rule: 'enum' }],
  });
