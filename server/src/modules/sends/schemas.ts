import { type Static, Type } from 'typebox';
import { StringEnum } from '../../schema/string-enum.ts';
import { CoinCodeSchema, MinorUnits, NetworkCodeSchema } from '../catalogue/schemas.ts';
import { FactorFields } from '../security/schemas.ts';
import { EmailCode, FundPasswordField, IdempotencyKey } from '../withdrawals/schemas.ts';

export const recipientKinds = ['email', 'address'] as const;

export const CreateSendBody = Type.Object(
  {
    coin: CoinCodeSchema,
    amountMinor: Type.String({ pattern: '^[1-9]\\d{0,77}$', description: 'Decimal string of minor units, > 0' }),
    recipientKind: StringEnum(recipientKinds),
    recipient: Type.String({
      minLength: 1,
      maxLength: 254,
      description: "The user's e-mail or one of their deposit addresses",
    }),
    network: Type.Optional(NetworkCodeSchema),
    idempotencyKey: IdempotencyKey,
    fundPassword: FundPasswordField,
    emailCode: EmailCode,
    ...FactorFields,
  },
  {
    additionalProperties: false,
    description: 'A deposit-address recipient: the network is found from the address when not given',
  },
);
export type CreateSendBody = Static<typeof CreateSendBody>;

/** Who a transfer would go to, checked while the form is filled (no code, no money). */
export const RecipientQuery = Type.Object(
  {
    recipientKind: StringEnum(recipientKinds),
    recipient: Type.String({ minLength: 1, maxLength: 254 }),
    network: Type.Optional(NetworkCodeSchema),
  },
  { additionalProperties: false },
);
export type RecipientQuery = Static<typeof RecipientQuery>;

export const RecipientCheck = Type.Object(
  {
    recipientKind: StringEnum(recipientKinds),
    recipient: Type.String({ description: 'The e-mail masked (al***@example.com), or the address as stored' }),
    network: Type.Union([NetworkCodeSchema, Type.Null()], { description: "The deposit address's network" }),
  },
  { additionalProperties: false },
);
export type RecipientCheck = Static<typeof RecipientCheck>;

export const Send = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    direction: StringEnum(['out', 'in'], { description: 'Seen from the signed-in user' }),
    coin: CoinCodeSchema,
    amountMinor: MinorUnits('Moved, no fee'),
    recipientKind: StringEnum(recipientKinds),
    recipient: Type.Union([Type.String(), Type.Null()], {
      description: 'As the sender typed it; null for the recipient',
    }),
    network: Type.Union([NetworkCodeSchema, Type.Null()]),
    createdAt: Type.String({ format: 'date-time' }),
  },
  { additionalProperties: false },
);
export type Send = Static<typeof Send>;
