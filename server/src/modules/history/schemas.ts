import { type Static, Type } from 'typebox';
import { StringEnum } from '../../schema/string-enum.ts';
import { CoinCodeSchema, MinorUnits, NetworkCodeSchema } from '../catalogue/schemas.ts';

export const historyTypes = ['deposit', 'withdrawal', 'send'] as const;
export type HistoryType = (typeof historyTypes)[number];
export const HISTORY_LIMIT_MAX = 50;

const DateOrDateTime = Type.String({
  pattern: '^\\d{4}-\\d{2}-\\d{2}(T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,6})?)?(Z|[+-]\\d{2}:\\d{2}))?$',
  description: 'YYYY-MM-DD (a whole UTC day) or an ISO date-time',
});

export const HistoryQuery = Type.Object(
  {
    type: Type.Optional(StringEnum(historyTypes)),
    coin: Type.Optional(CoinCodeSchema),
    from: Type.Optional(DateOrDateTime),
    to: Type.Optional(DateOrDateTime),
    cursor: Type.Optional(Type.String({ maxLength: 200, pattern: '^[A-Za-z0-9_-]+$' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: HISTORY_LIMIT_MAX, default: 20 })),
  },
  { additionalProperties: false },
);
export type HistoryQuery = Static<typeof HistoryQuery>;

export const HistoryItem = Type.Object(
  {
    type: StringEnum(historyTypes),
    id: Type.String({ description: 'Id of the deposit, withdrawal or send (GET its details by type)' }),
    direction: StringEnum(['in', 'out']),
    coin: CoinCodeSchema,
    network: Type.Union([NetworkCodeSchema, Type.Null()]),
    amountMinor: MinorUnits('Amount of the record'),
    feeMinor: MinorUnits('Fee (withdrawals); 0 otherwise'),
    state: Type.String({
      description: 'deposit: confirming | successful | failed; withdrawal: the withdrawal state; send: successful',
    }),
    address: Type.Union([Type.String(), Type.Null()], {
      description:
        'Deposit: the deposit address; withdrawal: the destination; send: the recipient as typed (sender only)',
    }),
    txHash: Type.Union([Type.String(), Type.Null()]),
    createdAt: Type.String({ format: 'date-time' }),
  },
  { additionalProperties: false },
);
export type HistoryItem = Static<typeof HistoryItem>;

export const HistoryPage = Type.Object(
  {
    items: Type.Array(HistoryItem),
    nextCursor: Type.Union([Type.String(), Type.Null()], {
      description: 'Pass as cursor for the next page; null at the end',
    }),
  },
  { additionalProperties: false },
);
export type HistoryPage = Static<typeof HistoryPage>;
