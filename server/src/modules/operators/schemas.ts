import { type Static, Type } from 'typebox';
import { OPERATOR_ROLES } from './roles.ts';

const TotpCode = Type.String({ pattern: '^[0-9]{6}$', description: 'A code of the authenticator app' });
const EnrolmentToken = Type.String({ pattern: '^[A-Za-z0-9_-]{22}$', description: 'From the enrolment link' });
export const OperatorRoleSchema = Type.Union([
  Type.Literal('support'),
  Type.Literal('compliance'),
  Type.Literal('finance'),
  Type.Literal('admin'),
]);
const Roles = Type.Array(OperatorRoleSchema, { maxItems: OPERATOR_ROLES.length, uniqueItems: true });
export type OperatorRoleValue = Static<typeof OperatorRoleSchema>;

export const OperatorSignInBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 32 }),
    password: Type.String({ minLength: 1, maxLength: 200 }),
    totpCode: TotpCode,
  },
  { additionalProperties: false },
);
export type OperatorSignInBody = Static<typeof OperatorSignInBody>;

export const OperatorSession = Type.Object(
  {
    operator: Type.Union([
      Type.Object({ name: Type.String(), roles: Roles }, { additionalProperties: false }),
      Type.Null(),
    ]),
  },
  { additionalProperties: false },
);

export const EnrolmentStartBody = Type.Object({ token: EnrolmentToken }, { additionalProperties: false });
export const EnrolmentStarted = Type.Object(
  {
    name: Type.String(),
    secret: Type.String({ description: 'Base32, for typing into the app' }),
    uri: Type.String({ description: 'otpauth:// URI (the QR code)' }),
  },
  { additionalProperties: false },
);
export const EnrolmentFinishBody = Type.Object(
  { token: EnrolmentToken, password: Type.String({ minLength: 1, maxLength: 200 }), totpCode: TotpCode },
  { additionalProperties: false },
);

export const OperatorIdParams = Type.Object({ id: Type.String({ format: 'uuid' }) });
export const OperatorSummary = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    roles: Roles,
    enrolled: Type.Boolean(),
    enrolmentPending: Type.Boolean(),
    createdAt: Type.String({ format: 'date-time' }),
    disabledAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    liveSessions: Type.Integer(),
  },
  { additionalProperties: false },
);
export const OperatorList = Type.Object({ items: Type.Array(OperatorSummary) }, { additionalProperties: false });
export const OperatorAddBody = Type.Object(
  {
    name: Type.String({ pattern: '^[a-z0-9_]{3,32}$' }),
    roles: Type.Array(OperatorRoleSchema, { minItems: 1, maxItems: 4, uniqueItems: true }),
  },
  { additionalProperties: false },
);
export const EnrolmentIssued = Type.Object(
  {
    id: Type.String(),
    enrolmentToken: Type.String({ description: 'Shown once; the console makes the link (…/#enrol=<token>)' }),
  },
  { additionalProperties: false },
);
export const RolesBody = Type.Object(
  { roles: Type.Array(OperatorRoleSchema, { minItems: 1, maxItems: 4, uniqueItems: true }) },
  { additionalProperties: false },
);
export const SessionsEnded = Type.Object({ ended: Type.Integer() }, { additionalProperties: false });
