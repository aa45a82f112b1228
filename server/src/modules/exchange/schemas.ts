import { type Static, Type } from 'typebox';
import { StringEnum } from '../../schema/string-enum.ts';
import { coinCodes, networkCodes } from '../catalogue/catalogue.ts';
import { exchangeStates } from './states.ts';

const minorUnits = (description: string) =>
  Type.String({ pattern: '^(0|[1-9]\\d{0,77})$', description: `${description}; decimal string of minor units` });
const positiveMinor = (description: string) =>
  Type.String({ pattern: '^[1-9]\\d{0,59}$', description: `${description}; decimal string of minor units, > 0` });
const nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);
const address = (description: string) => Type.String({ minLength: 1, maxLength: 128, description });
const RateType = StringEnum(['float', 'fixed'], {
  description: 'float: estimate, settled at the rate when the deposit confirms; fixed: locked for 20 minutes',
});

const pair = {
  sendCoin: StringEnum(coinCodes),
  sendNetwork: StringEnum(networkCodes),
  receiveCoin: StringEnum(coinCodes),
  receiveNetwork: StringEnum(networkCodes),
};

export const RateRequest = Type.Object(
  { ...pair, amountMinor: positiveMinor('Amount to send, in the send coin'), rateType: RateType },
  { additionalProperties: false },
);
export type RateRequest = Static<typeof RateRequest>;

export const ExchangeRate = Type.Object(
  {
    ...pair,
    rateType: RateType,
    /** Receive coins per send coin, decimal string. */
    rate: Type.String({ description: 'Whole receive coins per whole send coin (decimal string)' }),
    sendAmountMinor: minorUnits('Amount to send'),
    estimatedReceiveMinor: minorUnits('Amount received after charges (fixed: exact)'),
    serviceChargeMinor: minorUnits('Service charge, in the receive coin'),
    networkFeeMinor: minorUnits('Network fee of the payout, in the receive coin'),
    minAmountMinor: minorUnits('Smallest amount to send'),
    maxAmountMinor: minorUnits('Largest amount to send'),
    rateId: nullable(Type.String({ format: 'uuid', description: 'Fixed rate: pass to POST /exchange/orders' })),
    expiresAt: nullable(Type.String({ format: 'date-time', description: 'Fixed rate: the rate holds until then' })),
  },
  { $id: 'ExchangeRate', additionalProperties: false },
);
export type ExchangeRate = Static<typeof ExchangeRate>;

export const CreateOrderRequest = Type.Object(
  {
    ...pair,
    amountMinor: positiveMinor('Amount to send, in the send coin'),
    rateType: RateType,
    rateId: Type.Optional(Type.String({ format: 'uuid', description: 'Required for a fixed rate' })),
    receiveAddress: address('Where the received coin goes (receive network)'),
    refundAddress: Type.Optional(address('Where a refund goes (send network); required for a fixed rate')),
    termsAccepted: Type.Literal(true),
  },
  { additionalProperties: false },
);
export type CreateOrderRequest = Static<typeof CreateOrderRequest>;

export const ExchangeOrder = Type.Object(
  {
    id: Type.String({ format: 'uuid', description: 'Transaction id' }),
    status: StringEnum(exchangeStates, {
      description:
        "The specification's nine states (new, waiting, confirming, sending, completed, expired, suspended, " +
        'refunded, failed) plus `exchanging`: the deposit has its confirmations and is booked, and the receive ' +
        'amount is being settled (rate, liquidity) before the payout is handed over (`sending`); an order ' +
        'passes it within one engine tick unless it is held for liquidity (then `suspended`)',
    }),
    statusReason: nullable(Type.String()),
    rateType: RateType,
    ...pair,
    sendAmountMinor: minorUnits('Amount the user said they send'),
    depositAmountMinor: nullable(minorUnits('Amount actually received on the deposit address')),
    rate: Type.String({ description: 'Estimate (float) or locked rate (fixed), whole receive per whole send' }),
    finalRate: nullable(Type.String({ description: 'Rate the order settled at' })),
    estimatedReceiveMinor: minorUnits('Estimated (float) or exact (fixed) amount received'),
    receiveAmountMinor: nullable(minorUnits('Amount paid out')),
    serviceChargeMinor: minorUnits('Service charge, receive coin'),
    networkFeeMinor: minorUnits('Payout network fee, receive coin'),
    receiveAddress: Type.String(),
    refundAddress: nullable(Type.String()),
    depositAddress: nullable(Type.String({ description: "The order's own deposit address (send network)" })),
    depositTxHash: nullable(Type.String()),
    depositConfirmations: nullable(Type.Integer()),
    requiredConfirmations: Type.Integer(),
    payoutTxHash: nullable(Type.String()),
    payoutAddress: nullable(Type.String({ description: 'Receive address, or the refund address for a refund' })),
    refundedTo: nullable(
      StringEnum(['address', 'wallet'], {
        description:
          'A refunded order: where the coins went. `address`: the refund address (payoutTxHash once mined); ' +
          '`wallet`: the wallet balance (no refund address, not more than the network fee, or the refund ' +
          'transaction failed: see refundFailedAt). Null for any other state',
      }),
    ),
    refundFailedAt: nullable(
      Type.String({
        format: 'date-time',
        description:
          'When the refund transaction failed or reverted; its amount was then credited to the wallet balance',
      }),
    ),
    createdAt: Type.String({ format: 'date-time' }),
    sendAt: nullable(Type.String({ format: 'date-time', description: 'When the deposit was seen' })),
    receiveAt: nullable(Type.String({ format: 'date-time', description: 'When the payout was sent' })),
    deadlineAt: nullable(
      Type.String({
        format: 'date-time',
        description:
          'Send the deposit before this (fixed: the rate window; float: the order window, 24 h by default); after it the order expires',
      }),
    ),
    updatedAt: Type.String({ format: 'date-time' }),
  },
  { $id: 'ExchangeOrder', additionalProperties: false },
);
export type ExchangeOrder = Static<typeof ExchangeOrder>;

export const OrderParams = Type.Object({ id: Type.String({ format: 'uuid' }) }, { additionalProperties: false });

export const OrderListQuery = Type.Object(
  {
    cursor: Type.Optional(Type.String({ maxLength: 100, description: 'nextCursor of the previous page' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 50, default: 20 })),
  },
  { additionalProperties: false },
);

export const OrderList = Type.Object(
  {
    items: Type.Array(Type.Unsafe<ExchangeOrder>(Type.Ref('ExchangeOrder'))),
    nextCursor: nullable(Type.String()),
  },
  { additionalProperties: false },
);
export type OrderList = Static<typeof OrderList>;

const Side = Type.Object(
  { coin: StringEnum(coinCodes), network: StringEnum(networkCodes) },
  { additionalProperties: false },
);

export const ExchangePairs = Type.Object(
  {
    send: Type.Array(Side, { description: 'Coins and networks an order can be paid in (deposit watched, refundable)' }),
    receive: Type.Array(Side, { description: 'Coins and networks an order can pay out to' }),
  },
  { additionalProperties: false },
);
export type ExchangePairs = Static<typeof ExchangePairs>;
