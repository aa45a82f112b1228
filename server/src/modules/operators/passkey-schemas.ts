import { Type } from 'typebox';
import { PasskeyAssertion, PasskeyName, PasskeyRegistration } from '../security/passkey-schemas.ts';

export const OperatorPasskeyView = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    name: Type.String(),
    createdAt: Type.String({ format: 'date-time' }),
    lastUsedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    synced: Type.Boolean({ description: 'A synced (multi-device) passkey' }),
    suspended: Type.Boolean({
      description:
        'Its signature counter went backwards (a cloned key), or it was added before the latest enrolment: it answers nothing; remove it',
    }),
  },
  { additionalProperties: false },
);
export const OperatorPasskeyList = Type.Object(
  { passkeys: Type.Array(OperatorPasskeyView), max: Type.Integer() },
  { additionalProperties: false },
);
export const OperatorPasskeyOptionsBody = Type.Object(
  {
    totpCode: Type.Optional(
      Type.String({
        pattern: '^[0-9]{6}$',
        description: 'A code of the authenticator app (the step-up); not needed within 5 minutes of signing in',
      }),
    ),
  },
  { additionalProperties: false },
);
export const OperatorPasskeyRegisterBody = Type.Object(
  { name: PasskeyName, response: PasskeyRegistration },
  { additionalProperties: false },
);
export const OperatorPasskeySignInBody = Type.Object({ response: PasskeyAssertion }, { additionalProperties: false });
