import { type TSchema, Type } from 'typebox';
import { StringEnum } from '../../schema/string-enum.ts';
import { USER_ACTIONS } from './actions.ts';
import { LEDGER_PAGE_DEFAULT, LEDGER_PAGE_MAX } from './ledger-page.ts';
import { REVEALABLE } from './reveal.ts';
import { MATCHED_BY, SEARCH_KEY_MAX } from './search.ts';

const S = Type.String();
const Time = Type.String({ format: 'date-time' });
const Minor = Type.String({ pattern: '^-?[0-9]+$', description: 'Smallest units of the asset, a decimal string' });
const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);
const Obj = <P extends Record<string, TSchema>>(props: P, description?: string) =>
  Type.Object(props, { additionalProperties: false, ...(description ? { description } : {}) });
const List = <T extends TSchema>(item: T) => Type.Array(item, { maxItems: 200 });

export const UserIdParams = Obj({ userId: Type.String({ format: 'uuid' }) });
export const SearchQuery = Obj({
  q: Type.String({
    minLength: 1,
    maxLength: SEARCH_KEY_MAX,
    description: 'A user id, e-mail address, user name (or its start), deposit address or transaction hash',
  }),
});
const Masked = 'Masked; POST …/reveal answers the full value to compliance, audited';

export const SearchResult = Obj({
  items: List(
    Obj({
      userId: S,
      username: S,
      email: Type.String({ description: Masked }),
      createdAt: Time,
      matchedBy: StringEnum(MATCHED_BY),
    }),
  ),
  more: Type.Boolean({ description: 'More users matched than shown (20): narrow the key' }),
});

const Lock = Nullable(Obj({ since: Time, reason: S, by: Type.String({ description: 'The operator' }) }));

export const UserPage = Obj({
  profile: Obj({
    id: S,
    username: S,
    email: Type.String({ description: Masked }),
    nickname: Nullable(Type.String({ description: Masked })),
    country: S,
    createdAt: Time,
  }),
  coins: List(
    Obj({ code: S, decimals: Type.Integer(), displayDecimals: Type.Integer(), displayDecimalsAtOne: Type.Integer() }),
  ),
  balances: List(Obj({ asset: S, availableMinor: Minor, lockedMinor: Minor, rewardsMinor: Minor })),
  deposits: List(
    Obj({ id: S, coin: S, network: S, txHash: S, address: S, amountMinor: Minor, state: S, createdAt: Time }),
  ),
  withdrawals: List(
    Obj({
      id: S,
      coin: S,
      network: S,
      address: S,
      amountMinor: Minor,
      feeMinor: Minor,
      state: S,
      reason: Nullable(S),
      txHash: Nullable(S),
      origin: S,
      createdAt: Time,
    }),
  ),
  conversions: List(
    Obj({ id: S, fromAsset: S, toAsset: S, amountMinor: Minor, feeMinor: Minor, receiveMinor: Minor, createdAt: Time }),
  ),
  exchangeOrders: List(
    Obj({
      id: S,
      state: S,
      sendCoin: S,
      sendNetwork: S,
      sendAmountMinor: Minor,
      receiveCoin: S,
      receiveNetwork: S,
      receiveAmountMinor: Minor,
      createdAt: Time,
    }),
  ),
  rampOrders: List(
    Obj({
      id: S,
      side: S,
      state: S,
      reason: Nullable(S),
      coin: S,
      network: S,
      fiat: S,
      fiatAmountMinor: Minor,
      cryptoAmountMinor: Minor,
      createdAt: Time,
    }),
  ),
  sessions: List(
    Obj({
      id: S,
      createdAt: Time,
      lastSeenAt: Time,
      userAgent: Nullable(S),
      ip: Nullable(Type.String({ description: Masked })),
      waiting: Type.Boolean({ description: 'A sign-in waiting for a factor or a new-device confirmation' }),
    }),
  ),
  paymentMethods: List(
    Obj({ id: S, kind: S, active: Type.Boolean(), shown: Type.Record(S, S, { description: Masked }) }),
  ),
  tickets: List(Obj({ id: S, state: S, txRef: Nullable(S), createdAt: Time, updatedAt: Time })),
  security: Obj({
    factors: Obj({ totp: Type.Boolean(), passkeys: Type.Integer(), passkeysSuspended: Type.Integer() }),
    freeze: Obj(
      { frozen: Type.Boolean(), byOperator: Type.Boolean(), frozenAt: Nullable(Time), thawsAt: Nullable(Time) },
      'Frozen by the owner or by compliance (byOperator); thawsAt: when an owner’s unfreeze ends it',
    ),
    operatorFreeze: Lock,
    withdrawalHold: Lock,
    outflowHold: Nullable(Obj({ reason: S, since: Time, until: Time })),
    allowlist: Obj({ on: Type.Boolean(), offAt: Nullable(Time) }),
  }),
});

export const LedgerQuery = Obj({
  before: Type.Optional(Type.String({ pattern: '^[0-9]{1,19}$', description: 'The `next` of the previous page' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: LEDGER_PAGE_MAX, default: LEDGER_PAGE_DEFAULT })),
});
export const LedgerPage = Obj({
  items: List(
    Obj({
      id: S,
      transferId: S,
      kind: S,
      asset: S,
      account: S,
      amountMinor: Minor,
      balanceAfterMinor: Minor,
      createdAt: Time,
    }),
  ),
  next: Nullable(Type.String({ description: 'The cursor of the next page; null on the last' })),
});

const Reason = Type.String({ minLength: 1, maxLength: 500, description: 'Why (recorded in the audit log)' });
export const RevealBody = Obj({
  field: StringEnum(REVEALABLE),
  itemId: Type.Optional(Type.String({ format: 'uuid', description: 'The session or payout method (their fields)' })),
  reason: Reason,
});
export const Revealed = Obj({ field: StringEnum(REVEALABLE), itemId: Nullable(S), value: S });

export const ActionBody = Obj({ action: StringEnum(USER_ACTIONS), reason: Reason });
export const ActionDone = Obj({
  action: StringEnum(USER_ACTIONS),
  changed: Type.Boolean({ description: 'False when there was nothing to do (already frozen, no hold…)' }),
  sessionsEnded: Type.Integer(),
  cancelledWithdrawals: Type.Integer(),
});
