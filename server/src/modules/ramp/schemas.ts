import { type Static, Type } from 'typebox';
import { StringEnum } from '../../schema/string-enum.ts';
import { coinCodes, networkCodes } from '../catalogue/catalogue.ts';
import { FactorFields } from '../security/schemas.ts';
import { buyMethods, payoutKinds, rampFiats } from './moonpay/codes.ts';
import { rampStates } from './states.ts';

const minorUnits = (description: string) =>
  Type.String({ pattern: '^(0|[1-9]\\d{0,77})$', description: `${description}; decimal string of minor units` });
const positiveMinor = (description: string) =>
  Type.String({ pattern: '^[1-9]\\d{0,40}$', description: `${description}; decimal string of minor units, > 0` });
const nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);
const Side = StringEnum(['buy', 'sell']);
const Method = StringEnum([...buyMethods, ...payoutKinds], {
  description: 'buy: the provider payment method; sell: the payout kind',
});

export const RampPair = Type.Object({ coin: StringEnum(coinCodes), network: StringEnum(networkCodes) });

export const RampOptions = Type.Object({
  available: Type.Boolean(),
  /** Why not: `country` (third-party payment only in Brazil and India) or `provider` (not configured). */
  reason: nullable(StringEnum(['country', 'provider'])),
  country: Type.String(),
  fiat: nullable(StringEnum(rampFiats)),
  sandbox: Type.Boolean(),
  pairs: Type.Array(RampPair),
  buyMethods: Type.Array(StringEnum(buyMethods)),
  payoutKinds: Type.Array(StringEnum(payoutKinds)),
  /** INR: the smallest payment, paise; null for other fiats. */
  minimumFiatMinor: nullable(minorUnits('Smallest payment')),
});
export type RampOptions = Static<typeof RampOptions>;

export const QuoteRequest = Type.Object(
  {
    side: Side,
    coin: StringEnum(coinCodes),
    network: StringEnum(networkCodes),
    /** buy: fiat to pay (centavos/paise, fees included); sell: coins to sell (ledger minor units). */
    amountMinor: positiveMinor('buy: fiat paid, fees included; sell: coins sold'),
    method: Method,
  },
  { additionalProperties: false },
);
export type QuoteRequest = Static<typeof QuoteRequest>;

export const RampQuote = Type.Object({
  id: Type.String({ format: 'uuid' }),
  side: Side,
  coin: StringEnum(coinCodes),
  network: StringEnum(networkCodes),
  fiat: StringEnum(rampFiats),
  method: Method,
  fiatAmountMinor: minorUnits('buy: paid in total; sell: paid out to the user'),
  cryptoAmountMinor: minorUnits('buy: coins delivered; sell: coins sold'),
  feeFiatMinor: minorUnits("The provider's fees, in the fiat"),
  networkFeeMinor: minorUnits('sell: network fee of sending the coins (added to what is taken); buy: 0'),
  /** sell: payout kinds the buyer accepts. */
  payoutKinds: Type.Array(StringEnum(payoutKinds)),
  expiresAt: Type.String({ format: 'date-time' }),
  sandbox: Type.Boolean(),
});
export type RampQuote = Static<typeof RampQuote>;

export const PlaceOrder = Type.Object(
  {
    quoteId: Type.String({ format: 'uuid' }),
    termsAccepted: Type.Literal(true),
    /** sell: the active payment method the fiat goes to. */
    payoutMethodId: Type.Optional(Type.String({ format: 'uuid' })),
    /** sell: the fund password (required once one is set) and a `withdraw` e-mail code, as a withdrawal takes. */
    fundPassword: Type.Optional(Type.String({ pattern: '^\\d{6}$' })),
    emailCode: Type.Optional(Type.String({ pattern: '^\\d{6}$', description: 'sell: the `withdraw` e-mail code' })),
    /** sell: the authenticator app's code (or a recovery code) once the user has one (issue 31). */
    ...FactorFields,
    idempotencyKey: Type.String({ minLength: 8, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' }),
  },
  { additionalProperties: false },
);
export type PlaceOrder = Static<typeof PlaceOrder>;

export const RampEvent = Type.Object({
  state: StringEnum(rampStates),
  reason: nullable(Type.String()),
  at: Type.String({ format: 'date-time' }),
});

export const RampOrder = Type.Object({
  id: Type.String({ format: 'uuid' }),
  side: Side,
  state: StringEnum(rampStates),
  reason: nullable(Type.String()),
  coin: StringEnum(coinCodes),
  network: StringEnum(networkCodes),
  fiat: StringEnum(rampFiats),
  method: Method,
  payoutMethodId: nullable(Type.String()),
  fiatAmountMinor: minorUnits('Fiat paid (buy) or paid out (sell)'),
  cryptoAmountMinor: minorUnits('Coins bought or sold'),
  feeFiatMinor: minorUnits('Provider fees'),
  networkFeeMinor: minorUnits('sell: network fee'),
  walletAddress: nullable(Type.String()),
  depositAddress: nullable(Type.String()),
  providerTransactionId: nullable(Type.String()),
  txHash: nullable(Type.String()),
  /** buy: the on-chain deposit of the coins, once seen. */
  deposit: nullable(Type.Object({ state: Type.String(), amountMinor: minorUnits('Credited') })),
  /** sell: our transfer of the coins to the provider. */
  transfer: nullable(Type.Object({ state: Type.String(), txHash: nullable(Type.String()) })),
  checkoutUrl: nullable(Type.String()),
  checkoutExpiresAt: Type.String({ format: 'date-time' }),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
  events: Type.Array(RampEvent),
  sandbox: Type.Boolean(),
});
export type RampOrder = Static<typeof RampOrder>;

export const OrdersQuery = Type.Object(
  {
    side: Type.Optional(Side),
    from: Type.Optional(Type.String({ maxLength: 40 })),
    to: Type.Optional(Type.String({ maxLength: 40 })),
    before: Type.Optional(Type.String({ format: 'date-time' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 50 })),
  },
  { additionalProperties: false },
);
export type OrdersQuery = Static<typeof OrdersQuery>;

export const OrderList = Type.Object({ items: Type.Array(RampOrder), next: nullable(Type.String()) });

export const OrderParams = Type.Object({ id: Type.String({ format: 'uuid' }) });

export const SellDeposit = Type.Object(
  { transactionId: Type.String({ minLength: 1, maxLength: 128 }) },
  { additionalProperties: false },
);
