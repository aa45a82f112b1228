import { type Static, Type } from 'typebox';
import { loginMethods, loginResults } from '../../db/schema-security.ts';
import { StringEnum } from '../../schema/string-enum.ts';
import { PasskeyAssertion } from './passkey-schemas.ts';

export const TotpCode = Type.String({
  pattern: '^\\s*\\d{6}\\s*$',
  description: 'The 6-digit code of the authenticator app',
});
const RecoveryCode = Type.String({ minLength: 1, maxLength: 40, description: 'One recovery code (dashes optional)' });

/** The second factor, where an action asks for it: one of the three. */
export const FactorFields = {
  totpCode: Type.Optional(TotpCode),
  recoveryCode: Type.Optional(RecoveryCode),
  passkey: Type.Optional(PasskeyAssertion),
};

export const FactorBody = Type.Object(FactorFields, { additionalProperties: false });
export type FactorBody = Static<typeof FactorBody>;

export const ReauthBody = Type.Object(
  {
    password: Type.Optional(
      Type.String({ minLength: 1, maxLength: 128, description: 'Not needed with a passkey (it is both factors)' }),
    ),
    ...FactorFields,
  },
  { additionalProperties: false },
);

export const TotpConfirmBody = Type.Object({ code: TotpCode }, { additionalProperties: false });

export const TotpEnrolment = Type.Object(
  {
    secret: Type.String({ description: 'Base32 secret, for typing into the app by hand' }),
    uri: Type.String({ description: 'otpauth:// URI (issuer "CW Wallet", the user name as account) for the QR code' }),
  },
  { additionalProperties: false },
);

export const RecoveryCodes = Type.Object(
  {
    recoveryCodes: Type.Array(Type.String(), {
      description: 'Shown this once: only salted hashes are kept. Each works once.',
    }),
  },
  { additionalProperties: false },
);

export const SecurityStatus = Type.Object(
  {
    totp: Type.Boolean({ description: 'An authenticator app is on' }),
    passkeys: Type.Integer({ minimum: 0, description: 'How many passkeys the account has' }),
    recoveryCodesLeft: Type.Integer({ minimum: 0 }),
    reauthenticatedUntil: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
      description: 'Until when this session may change security data without proving the password again',
    }),
  },
  { additionalProperties: false },
);

const Nullable = (schema: ReturnType<typeof Type.String>) => Type.Union([schema, Type.Null()]);

export const LoginsQuery = Type.Object(
  {
    before: Type.Optional(Type.String({ pattern: '^[1-9]\\d{0,18}$', description: 'nextBefore of the previous page' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 50, default: 20 })),
  },
  { additionalProperties: false },
);

export const LoginHistory = Type.Object(
  {
    logins: Type.Array(
      Type.Object(
        {
          id: Type.String(),
          at: Type.String({ format: 'date-time' }),
          ip: Nullable(Type.String()),
          device: Type.Object(
            { browser: Nullable(Type.String()), os: Nullable(Type.String()), platform: Nullable(Type.String()) },
            { additionalProperties: false },
          ),
          place: Type.Object(
            { country: Nullable(Type.String()), region: Nullable(Type.String()), city: Nullable(Type.String()) },
            { additionalProperties: false, description: 'Approximate, from offline IP data at the sign-in' },
          ),
          method: StringEnum(loginMethods),
          result: StringEnum(loginResults),
        },
        { additionalProperties: false },
      ),
    ),
    nextBefore: Nullable(Type.String({ description: 'Pass as before for the next (older) page; null at the end' })),
  },
  { additionalProperties: false, description: 'Sign-in attempts of the last 90 days, newest first' },
);
