import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { FundPasswordService } from '../auth/fund-password-service.ts';
import type { VerificationCodes } from '../auth/verification-codes.ts';
import type { NetworkCode } from '../catalogue/catalogue.ts';
import type { SecondFactors } from '../security/factors-service.ts';
import type { OutflowBudget } from '../withdrawals/outflow-budget.ts';
import type { MoonPayClient } from './moonpay/client.ts';
import { moonPayCurrencyCode } from './moonpay/codes.ts';
import { createOrderService } from './orders.ts';
import { createQuoteService } from './quotes.ts';
import { type RampConfig, rampConfigFromEnv } from './ramp-config.ts';
import type { RampRouteDeps } from './routes.ts';
import { countryRules } from './rules.ts';
import type { RampOptions } from './schemas.ts';
import { createWebhookHandler } from './webhooks.ts';

export interface RampServiceOptions {
  db: Kysely<Database>;
  now: () => Date;
  config: Pick<RampConfig, 'inrMinimumMinor' | 'quoteTtlMs' | 'checkoutWindowMs' | 'webhookToleranceS'>;
  /** The provider's adapter once it is reachable (the sandbox starts after the app is built). */
  provider: () => MoonPayClient | null;
  networks: () => ReadonlySet<NetworkCode>;
  xpubs: Partial<Record<NetworkCode, string>>;
  wallClockMs?: () => number;
  /** A sell is a withdrawal to the provider: it takes the fund password and a `withdraw` e-mail code. */
  codes: VerificationCodes;
  fundPassword: FundPasswordService;
  /** With an authenticator app on, a sell asks for its code as a withdrawal does (issue 31). */
  factors: SecondFactors;
  /** The USD review budget sells share with withdrawals and sends. */
  budget: OutflowBudget;
}

const offeredPairs = [
  { coin: 'USDT', network: 'ethereum' },
  { coin: 'USDC', network: 'ethereum' },
  { coin: 'ETH', network: 'ethereum' },
  { coin: 'USDT', network: 'bsc' },
  { coin: 'BNB', network: 'bsc' },
] as const;

type Required = 'db' | 'now' | 'codes' | 'fundPassword' | 'factors' | 'budget';
type WithDefaults = Pick<RampServiceOptions, Required> & Partial<Omit<RampServiceOptions, Required>>;

export function createRampService(options: WithDefaults): RampRouteDeps {
  const o: RampServiceOptions = {
    config: rampConfigFromEnv({}),
    provider: () => null,
    networks: () => new Set(),
    xpubs: {},
    ...options,
  };
  return {
    async options(userId): Promise<RampOptions> {
      const account = await o.db
        .selectFrom('accounts')
        .select('country')
        .where('user_id', '=', userId)
        .executeTakeFirst();
      // One read of the account: its country decides the rules.
      const rules = account ? countryRules(account.country) : null;
      const client = o.provider();
      const networks = o.networks();
      return {
        available: rules !== null && client !== null,
        reason: rules === null ? 'country' : client === null ? 'provider' : null,
        country: account?.country ?? '',
        fiat: rules?.fiat ?? null,
        sandbox: client?.kind === 'sandbox',
        pairs: offeredPairs.filter((p) => networks.has(p.network) && moonPayCurrencyCode(p.coin, p.network)),
        buyMethods: [...(rules?.buyMethods ?? [])],
        payoutKinds: [...(rules?.payoutKinds ?? [])],
        minimumFiatMinor: rules?.fiat === 'INR' ? o.config.inrMinimumMinor.toString() : null,
      };
    },
    quotes: createQuoteService({
      db: o.db,
      now: o.now,
      provider: o.provider,
      networks: o.networks,
      inrMinimumMinor: o.config.inrMinimumMinor,
      quoteTtlMs: o.config.quoteTtlMs,
    }),
    orders: createOrderService({
      db: o.db,
      now: o.now,
      provider: o.provider,
      xpubs: o.xpubs,
      codes: o.codes,
      fundPassword: o.fundPassword,
      factors: o.factors,
      budget: o.budget,
      checkoutWindowMs: o.config.checkoutWindowMs,
    }),
    webhook: createWebhookHandler({
      db: o.db,
      now: o.now,
      webhookKey: () => o.provider()?.webhookKey ?? null,
      toleranceS: o.config.webhookToleranceS,
      ...(o.wallClockMs ? { wallClockMs: o.wallClockMs } : {}),
    }),
  };
}
