import { type Static, Type } from 'typebox';
import { StringEnum } from '../../schema/string-enum.ts';
import { coinCodes, networkCodes } from './catalogue.ts';

export const MinorUnits = (description: string) =>
  Type.String({ pattern: '^(0|[1-9]\\d{0,77})$', description: `${description}; decimal string of minor units` });

export const CoinCodeSchema = StringEnum(coinCodes);
export const NetworkCodeSchema = StringEnum(networkCodes);

export const CataloguePair = Type.Object(
  {
    coin: CoinCodeSchema,
    network: NetworkCodeSchema,
    chainDecimals: Type.Integer({ minimum: 0, maximum: 36 }),
    tokenContract: Type.Union([Type.String(), Type.Null()], {
      description: 'Token contract on this network; null for the native coin or when not deployed',
    }),
    minDepositMinor: MinorUnits('Smallest credited deposit'),
    confirmations: Type.Integer({ minimum: 0 }),
    expectedArrivalMinutes: Type.Integer({ minimum: 0 }),
    withdrawMinMinor: MinorUnits('Smallest withdrawal'),
    withdrawMaxMinor: MinorUnits('Largest withdrawal'),
    withdrawFeeMinor: MinorUnits('Network fee taken from each withdrawal'),
    depositEnabled: Type.Boolean(),
    withdrawEnabled: Type.Boolean({ description: 'False also where no signer can broadcast on this network' }),
  },
  { additionalProperties: false },
);

export const Catalogue = Type.Object(
  {
    coins: Type.Array(
      Type.Object(
        {
          code: CoinCodeSchema,
          decimals: Type.Integer({ minimum: 0, maximum: 36 }),
          displayDecimals: Type.Integer({
            minimum: 0,
            maximum: 36,
            description: 'Fraction digits shown for an amount below one coin (balances round down, fees up)',
          }),
          displayDecimalsAtOne: Type.Integer({
            minimum: 0,
            maximum: 36,
            description: 'Fraction digits shown for an amount of one coin or more (balances round down, fees up)',
          }),
        },
        { additionalProperties: false },
      ),
    ),
    networks: Type.Array(
      Type.Object(
        {
          code: NetworkCodeSchema,
          tokenStandard: Type.Union([Type.String(), Type.Null()]),
          nativeCoin: CoinCodeSchema,
          depositsLive: Type.Boolean({
            description: 'Deposits on this network are watched and credited now; false: shown as unavailable',
          }),
          chainId: Type.Union([Type.Integer(), Type.Null()], {
            description: 'EIP-155 chain id of a running EVM chain (a connected wallet must be on it); null otherwise',
          }),
          checkInContract: Type.Union([Type.String({ pattern: '^0x[0-9a-fA-F]{40}$' }), Type.Null()], {
            description:
              'The rewards check-in contract on this chain, if any (the only contract a wallet is asked to call)',
          }),
        },
        { additionalProperties: false },
      ),
    ),
    pairs: Type.Array(CataloguePair),
  },
  { additionalProperties: false },
);
export type Catalogue = Static<typeof Catalogue>;
