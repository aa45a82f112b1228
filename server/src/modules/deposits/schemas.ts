import { type Static, Type } from 'typebox';
import { StringEnum } from '../../schema/string-enum.ts';
import { coinCodes, networkCodes } from '../catalogue/catalogue.ts';

const minorUnits = (description: string) =>
  Type.String({ pattern: '^(0|[1-9]\\d{0,77})$', description: `${description}; decimal string of minor units` });

export const CoinNetworkQuery = Type.Object(
  { coin: StringEnum(coinCodes), network: StringEnum(networkCodes) },
  { additionalProperties: false },
);
export type CoinNetworkQuery = Static<typeof CoinNetworkQuery>;

export const DepositAddress = Type.Object(
  {
    coin: StringEnum(coinCodes),
    network: StringEnum(networkCodes),
    address: Type.String({ description: "The user's deposit address on the network (one per user and network)" }),
    minDepositMinor: minorUnits('Smaller deposits are recorded but not credited'),
    confirmations: Type.Integer({ minimum: 1, description: 'Blocks (the inclusion block counts as 1) before credit' }),
    expectedArrivalMinutes: Type.Integer({ minimum: 0 }),
  },
  { additionalProperties: false },
);
export type DepositAddress = Static<typeof DepositAddress>;

export const depositStates = ['confirming', 'successful', 'failed'] as const;
/** below_minimum: not credited; reorged: its block left the chain; amount_too_large: above the ledger's limit, for review. */
export const depositReasons = ['below_minimum', 'reorged', 'amount_too_large'] as const;

export const Deposit = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    coin: StringEnum(coinCodes),
    network: StringEnum(networkCodes),
    txHash: Type.String(),
    /** Log index of a token transfer, vout of a UTXO output, -1 for a native transfer. */
    outputIndex: Type.Integer({ minimum: -1 }),
    fromAddress: Type.Union([Type.String(), Type.Null()]),
    toAddress: Type.String(),
    amountMinor: minorUnits('Credited amount, ledger unit of the coin'),
    blockNumber: Type.String({ pattern: '^\\d{1,20}$' }),
    confirmations: Type.Integer({ minimum: 0 }),
    requiredConfirmations: Type.Integer({ minimum: 1 }),
    state: StringEnum(depositStates),
    reason: Type.Union([StringEnum(depositReasons), Type.Null()]),
    createdAt: Type.String({ format: 'date-time' }),
    completedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  },
  { additionalProperties: false },
);
export type Deposit = Static<typeof Deposit>;

export const DepositTxQuery = Type.Object(
  {
    network: StringEnum(networkCodes),
    txHash: Type.String({ pattern: '^0x[0-9a-fA-F]{64}$', description: 'The transaction that paid the deposit' }),
  },
  { additionalProperties: false },
);
export type DepositTxQuery = Static<typeof DepositTxQuery>;

export const DepositIdParams = Type.Object({ id: Type.String({ format: 'uuid' }) }, { additionalProperties: false });

export const ConfirmClickResult = Type.Object(
  {
    matched: Type.Boolean({ description: 'A deposit of this coin and network arrived in the last 24 hours' }),
    depositId: Type.Union([Type.String({ format: 'uuid' }), Type.Null()]),
    /** Unmatched clicks still allowed today (UTC); at 0 further clicks answer DEPOSIT_CONFIRM_LIMIT. */
    unmatchedLeftToday: Type.Integer({ minimum: 0 }),
  },
  { additionalProperties: false },
);
export type ConfirmClickResult = Static<typeof ConfirmClickResult>;
