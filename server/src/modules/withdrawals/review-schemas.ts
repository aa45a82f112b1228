import { Type } from 'typebox';
import { StringEnum } from '../../schema/string-enum.ts';
import { CoinCodeSchema, MinorUnits, NetworkCodeSchema } from '../catalogue/schemas.ts';
import { BULK_MAX, QUEUE_PAGE_MAX } from './review-service.ts';
import { reviewStates, withdrawalStates } from './state-machine.ts';

/** Schemas of /api/ops/withdrawals… (ops-routes.ts). Amounts are decimal strings of minor units. */
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);
const DateTime = Type.String({ format: 'date-time' });
const Cents = Type.String({ pattern: '^[0-9]{1,78}$', description: 'USD cents' });
export const fourEyesReasons = ['above_threshold', 'price_unavailable', 'second_look'] as const;

export const ReviewQueueQuery = Type.Object(
  {
    state: Type.Optional(StringEnum(reviewStates)),
    after: Type.Optional(Type.String({ maxLength: 80, description: 'The `next` of the previous page' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: QUEUE_PAGE_MAX })),
  },
  { additionalProperties: false },
);

const Signals = Type.Object(
  {
    firstWithdrawal: Type.Boolean(),
    paidWithdrawalsBefore: Type.Integer({ description: 'Capped at 100' }),
    addressPaidBefore: Type.Boolean(),
    addressBookSavedAt: Nullable(DateTime),
    addressOtherUsers: Type.Integer({ description: 'Other users who withdrew to this address (capped at 100)' }),
    securityChange: Nullable(Type.Object({ event: Type.String(), at: DateTime }, { additionalProperties: false })),
    newDeviceAt: Nullable(DateTime),
    withdrawn30dMinor: MinorUnits('Same coin, last 30 days, this one excluded'),
    deposited30dMinor: MinorUnits('Same coin, last 30 days'),
    accountCreatedAt: DateTime,
    ownAddress: Nullable(StringEnum(['deposit_address', 'platform'])),
    complianceStop: Nullable(
      Type.Object(
        {
          kind: StringEnum(['hold', 'freeze']),
          operator: Nullable(Type.String()),
          reason: Type.String(),
          since: DateTime,
        },
        {
          additionalProperties: false,
          description: "Compliance's hold or freeze: approval is refused while it stands",
        },
      ),
    ),
  },
  { additionalProperties: false },
);

const DecisionSchema = Type.Object(
  {
    operator: Type.String(),
    decision: StringEnum(['approve', 'second_look', 'reject']),
    reason: Nullable(Type.String()),
    stateAfter: StringEnum(withdrawalStates),
    decidedAt: DateTime,
  },
  { additionalProperties: false },
);

export const ReviewItem = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    userId: Type.String({ format: 'uuid' }),
    username: Type.String(),
    coin: CoinCodeSchema,
    network: NetworkCodeSchema,
    decimals: Type.Integer({ description: "The coin's ledger decimals, to show the amounts" }),
    address: Type.String(),
    amountMinor: MinorUnits('Debited from the balance'),
    feeMinor: MinorUnits('Network fee'),
    arrivalMinor: MinorUnits('What the address receives'),
    state: StringEnum(withdrawalStates),
    createdAt: DateTime,
    valueUsdCents: Nullable(Cents),
    /** Why two approvals are (or would be) needed; null when one suffices. */
    fourEyes: Nullable(StringEnum(fourEyesReasons)),
    signals: Signals,
    decisions: Type.Array(DecisionSchema),
  },
  { additionalProperties: false },
);

export const ReviewQueue = Type.Object(
  {
    items: Type.Array(ReviewItem),
    next: Nullable(Type.String()),
    waiting: Type.Integer({ description: 'How many wait in these states (counted up to 10,000)' }),
    secondApprovalUsdCents: Cents,
  },
  { additionalProperties: false },
);

export const ReasonBody = Type.Object(
  { reason: Type.String({ minLength: 1, maxLength: 500 }) },
  { additionalProperties: false },
);

export const DecisionResult = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    state: StringEnum(withdrawalStates),
    fourEyes: Nullable(StringEnum(fourEyesReasons)),
  },
  { additionalProperties: false },
);

export const BulkBody = Type.Object(
  { ids: Type.Array(Type.String({ format: 'uuid' }), { minItems: 1, maxItems: BULK_MAX }) },
  { additionalProperties: false },
);

export const BulkResults = Type.Object(
  {
    results: Type.Array(
      Type.Object(
        {
          id: Type.String({ format: 'uuid' }),
          outcome: StringEnum(['approved', 'needs_four_eyes', 'refused']),
          code: Type.Optional(Type.String()),
          message: Type.Optional(Type.String()),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);
