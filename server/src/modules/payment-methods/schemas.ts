import { chatApps, identityTypes, pixKeyTypes } from '@cw/shared-state/payouts';
import { type Static, Type } from 'typebox';
import { StringEnum } from '../../schema/string-enum.ts';

/** Payout methods a user may keep (bounded, like every list). */
export const METHODS_MAX = 20;

const text = (max: number) => Type.String({ maxLength: max });
/** Adding a payout method names where sold coins' money goes: it takes the fund password (issue 38). */
const fundPassword = Type.String({ pattern: '^\\d{6}$', description: 'The fund password (one must be set)' });

export const NewPaymentMethod = Type.Union([
  Type.Object(
    {
      kind: Type.Literal('bank_in'),
      accountNumber: text(30),
      confirmAccountNumber: text(30),
      ifsc: text(20),
      holder: text(120),
      bankName: text(120),
      identityType: StringEnum(identityTypes),
      identityNumber: text(20),
      fundPassword,
    },
    { additionalProperties: false },
  ),
  Type.Object(
    { kind: Type.Literal('pix'), keyType: StringEnum(pixKeyTypes), key: text(100), holder: text(120), fundPassword },
    { additionalProperties: false },
  ),
  Type.Object(
    { kind: Type.Literal('upi'), upiId: text(300), holder: text(120), fundPassword },
    { additionalProperties: false },
  ),
  Type.Object(
    { kind: Type.Literal('chat_app'), app: StringEnum(chatApps), handle: text(80), fundPassword },
    { additionalProperties: false },
  ),
]);
export type NewPaymentMethod = Static<typeof NewPaymentMethod>;

export const PaymentMethod = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    kind: StringEnum(['bank_in', 'pix', 'upi', 'chat_app'] as const),
    active: Type.Boolean(),
    shown: Type.Record(Type.String(), Type.String(), {
      description: 'What may be shown: masked numbers (•••• 1234), bank, holder, key type, chat app',
    }),
    createdAt: Type.String({ format: 'date-time' }),
    usableAt: Type.String({
      format: 'date-time',
      description:
        'With the withdrawal allowlist on, a sell may pay this method only from this time (the allowlist hold from when it was added or switched back on)',
    }),
  },
  { additionalProperties: false },
);
export type PaymentMethod = Static<typeof PaymentMethod>;

export const PaymentMethodList = Type.Object(
  { items: Type.Array(PaymentMethod), max: Type.Integer() },
  { additionalProperties: false },
);

/** Turning a method on makes it where a sell's money may go again: like adding one, it takes the fund password. */
export const ActiveBody = Type.Object(
  { active: Type.Boolean(), fundPassword: Type.Optional(fundPassword) },
  { additionalProperties: false },
);
export const MethodParams = Type.Object({ id: Type.String({ format: 'uuid' }) }, { additionalProperties: false });
