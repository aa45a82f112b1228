import { type Static, Type } from 'typebox';
import { StringEnum } from '../../schema/string-enum.ts';
import { coinCodes } from '../catalogue/catalogue.ts';

const minorUnits = (description: string) =>
  Type.String({ pattern: '^(0|[1-9]\\d{0,77})$', description: `${description}; decimal string of minor units` });
const rateText = (description: string) =>
  Type.String({ pattern: '^\\d+(\\.\\d+)?$', description: `${description}; decimal text rounded down to 18 decimals` });
const Coin = StringEnum(coinCodes);

export const QuoteRequest = Type.Object(
  {
    from: Coin,
    to: Coin,
    amountMinor: Type.String({
      pattern: '^[1-9]\\d{0,59}$',
      description: 'Amount of `from` to give, in its ledger minor units',
    }),
  },
  { additionalProperties: false },
);
export type QuoteRequest = Static<typeof QuoteRequest>;

export const Quote = Type.Object(
  {
    quoteId: Type.String({ format: 'uuid' }),
    from: Coin,
    to: Coin,
    amountMinor: minorUnits('Amount given (of `from`)'),
    rate: rateText('Whole `to` coins per whole `from` coin, after the spread'),
    feeMinor: minorUnits('Service fee, in `from`, rounded up; 0 for stablecoin pairs'),
    receiveMinor: minorUnits('Amount received (of `to`), rounded down'),
    minMinor: minorUnits('Smallest amount of `from` this pair accepts now'),
    maxMinor: minorUnits('Largest amount of `from` this pair accepts now'),
    source: StringEnum(['sandbox', 'live']),
    createdAt: Type.String({ format: 'date-time' }),
    expiresAt: Type.String({ format: 'date-time', description: 'Accepting after this gives a new quote instead' }),
  },
  { $id: 'ConvertQuote', additionalProperties: false },
);
export type Quote = Static<typeof Quote>;
export const QuoteRef = Type.Unsafe<Quote>(Type.Ref('ConvertQuote'));

export const Conversion = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    quoteId: Type.String({ format: 'uuid' }),
    from: Coin,
    to: Coin,
    amountMinor: minorUnits('Amount given'),
    feeMinor: minorUnits('Service fee, in `from`'),
    receiveMinor: minorUnits('Amount received'),
    rate: rateText('Whole `to` coins per whole `from` coin'),
    status: StringEnum(['completed']),
    createdAt: Type.String({ format: 'date-time' }),
  },
  { $id: 'Conversion', additionalProperties: false },
);
export type Conversion = Static<typeof Conversion>;
export const ConversionRef = Type.Unsafe<Conversion>(Type.Ref('Conversion'));

export const AcceptResult = Type.Union([
  Type.Object(
    { outcome: Type.Literal('converted'), conversion: ConversionRef },
    { additionalProperties: false, description: 'Done (also the answer to a repeated accept of the same quote)' },
  ),
  Type.Object(
    { outcome: Type.Literal('requoted'), quote: QuoteRef },
    {
      additionalProperties: false,
      description: 'Rate expired and updated: nothing was converted; the user must accept this new quote',
    },
  ),
]);
export type AcceptResult = Static<typeof AcceptResult>;

export const UUID_PATTERN = '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$';
export const IdParams = Type.Object({ id: Type.String({ pattern: UUID_PATTERN }) }, { additionalProperties: false });

export const HistoryQuery = Type.Object(
  {
    cursor: Type.Optional(Type.String({ maxLength: 200, description: 'nextCursor of the previous page' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
    from: Type.Optional(StringEnum(coinCodes, { description: 'Only conversions giving this coin' })),
    to: Type.Optional(StringEnum(coinCodes, { description: 'Only conversions receiving this coin' })),
  },
  { additionalProperties: false },
);

export const HistoryPage = Type.Object(
  {
    items: Type.Array(ConversionRef),
    nextCursor: Type.Union([Type.String(), Type.Null()], { description: 'null on the last page' }),
  },
  { additionalProperties: false },
);
export type HistoryPage = Static<typeof HistoryPage>;
