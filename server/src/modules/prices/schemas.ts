import { type Static, Type } from 'typebox';
import { StringEnum } from '../../schema/string-enum.ts';
import { coinCodes } from '../catalogue/catalogue.ts';
import { fiatCurrencies } from '../settings/schemas.ts';

export const PricesQuery = Type.Object(
  { fiat: StringEnum(fiatCurrencies, { description: 'Fiat currency of the prices (the price mode)' }) },
  { additionalProperties: false },
);

export const CoinPrice = Type.Object(
  {
    asset: StringEnum(coinCodes),
    /** Ledger decimals of the coin, so a client turns minor units into a fiat value without the catalogue. */
    decimals: Type.Integer({ minimum: 0, maximum: 30 }),
    price: Type.String({
      pattern: '^\\d{1,40}(\\.\\d{1,8})?$',
      description: 'Price of one whole coin in the fiat currency, decimal text (at most 8 decimals, rounded down)',
    }),
  },
  { additionalProperties: false },
);

export const Prices = Type.Object(
  {
    source: StringEnum(['sandbox', 'live'], {
      description: 'sandbox: simulated prices from the embedded feed; label them as such',
    }),
    fiat: StringEnum(fiatCurrencies),
    asOf: Type.String({ format: 'date-time', description: 'Oldest update among the prices listed' }),
    prices: Type.Array(CoinPrice, { description: 'Coins with a fresh price; a coin without one is absent' }),
  },
  { additionalProperties: false },
);
export type Prices = Static<typeof Prices>;
