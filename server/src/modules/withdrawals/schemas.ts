import { type Static, Type } from 'typebox';
import { StringEnum } from '../../schema/string-enum.ts';
import { CoinCodeSchema, MinorUnits, NetworkCodeSchema } from '../catalogue/schemas.ts';
import { FactorFields } from '../security/schemas.ts';
import { userWithdrawalStates } from './state-machine.ts';

export const IdempotencyKey = Type.String({
  minLength: 8,
  maxLength: 64,
  pattern: '^[A-Za-z0-9_-]+$',
  description: 'Chosen by the client per order (e.g. a UUID); a retry with the same key has one effect',
});
export const EmailCode = Type.String({ pattern: '^\\d{6}$', description: 'The `withdraw` e-mail code' });
export const FundPasswordField = Type.Optional(
  Type.String({ pattern: '^\\d{6}$', description: 'Required when the user has set a fund password' }),
);
const PositiveMinor = Type.String({ pattern: '^[1-9]\\d{0,77}$', description: 'Decimal string of minor units, > 0' });

export const CreateWithdrawalBody = Type.Object(
  {
    coin: CoinCodeSchema,
    network: NetworkCodeSchema,
    address: Type.String({ minLength: 1, maxLength: 100 }),
    amountMinor: PositiveMinor,
    idempotencyKey: IdempotencyKey,
    fundPassword: FundPasswordField,
    emailCode: EmailCode,
    ...FactorFields,
  },
  { additionalProperties: false },
);
export type CreateWithdrawalBody = Static<typeof CreateWithdrawalBody>;

export const Withdrawal = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    coin: CoinCodeSchema,
    network: NetworkCodeSchema,
    address: Type.String(),
    amountMinor: MinorUnits('Debited from the balance'),
    feeMinor: MinorUnits('Network fee'),
    arrivalMinor: MinorUnits('What the address receives: amount - fee'),
    // The user's states: a second approval is shown as the review it is part of (state-machine.ts).
    state: StringEnum(userWithdrawalStates),
    reason: Type.Union([Type.String(), Type.Null()], { description: 'Why it was rejected or failed' }),
    txHash: Type.Union([Type.String(), Type.Null()]),
    createdAt: Type.String({ format: 'date-time' }),
    updatedAt: Type.String({ format: 'date-time' }),
  },
  { additionalProperties: false },
);
export type Withdrawal = Static<typeof Withdrawal>;

export const IdParams = Type.Object({ id: Type.String({ format: 'uuid' }) }, { additionalProperties: false });

export const EmailCodeBody = Type.Object(
  { language: Type.Optional(StringEnum(['zh-CN', 'zh-TW', 'en', 'es'])) },
  { additionalProperties: false },
);
