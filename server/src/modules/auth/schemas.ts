import { type Static, Type } from 'typebox';
import { StringEnum } from '../../schema/string-enum.ts';
import { mailLanguages } from '../mail/templates.ts';
import { TotpCode } from '../security/schemas.ts';

// Bodies use loose string schemas (with length caps against abuse); the services check
// the rules and answer VALIDATION_FAILED with `details: [{ field, rule, message }]`.
const text = (maxLength: number, description?: string) =>
  Type.String(description === undefined ? { maxLength } : { maxLength, description });

export const codePurposes = [
  'register',
  'reset_password',
  'change_password',
  'fund_password',
  'withdraw',
  'transfer',
  'unfreeze',
] as const;
/** 'change_email' codes go to an address the account does not have yet: only security/email-change.ts issues them. */
export type CodePurposeValue = (typeof codePurposes)[number] | 'change_email';

export const SendCodeBody = Type.Object(
  {
    email: Type.Optional(
      text(320, 'Required for register and reset_password; ignored (the account e-mail is used) otherwise.'),
    ),
    purpose: StringEnum(codePurposes),
    language: Type.Optional(
      StringEnum(mailLanguages, { description: 'Language of the e-mail; default from Accept-Language.' }),
    ),
  },
  { additionalProperties: false },
);

export const SendCodeResult = Type.Object(
  {
    resendAfterSeconds: Type.Integer(),
    expiresInSeconds: Type.Integer(),
  },
  { additionalProperties: false },
);

export const RegisterBody = Type.Object(
  {
    username: text(100, '3-20 characters: letters, digits, underscore; unique case-insensitively.'),
    nickname: Type.Optional(Type.Union([text(100), Type.Null()])),
    country: text(10, 'ISO 3166-1 alpha-2, e.g. "CN".'),
    password: text(200),
    confirmPassword: text(200),
    email: text(320),
    code: text(20, 'The 6-digit code e-mailed for purpose "register".'),
    agreementAccepted: Type.Boolean(),
    inviteCode: Type.Optional(
      Type.Union([
        text(20, "A friend's invite code (from their link); 400 INVITE_CODE_INVALID if unknown."),
        Type.Null(),
      ]),
    ),
  },
  { additionalProperties: false },
);

export const LoginBody = Type.Object(
  {
    identifier: text(320, 'E-mail address or user name.'),
    password: text(200),
    // A returning device's authenticator code, sent with the password (one request instead of two).
    totpCode: Type.Optional(TotpCode),
  },
  { additionalProperties: false },
);

export const ResetPasswordBody = Type.Object(
  {
    email: text(320),
    code: text(20),
    password: text(200),
    confirmPassword: text(200),
  },
  { additionalProperties: false },
);

export const ChangePasswordBody = Type.Object(
  {
    oldPassword: text(200),
    password: text(200),
    confirmPassword: text(200),
    endOtherSessions: Type.Optional(
      Type.Boolean({ description: 'End every other session of the account (default true)', default: true }),
    ),
  },
  { additionalProperties: false },
);

export const SetFundPasswordBody = Type.Object(
  {
    code: text(20, 'The 6-digit code e-mailed for purpose "fund_password".'),
    fundPassword: text(20, 'Exactly 6 digits.'),
    confirmFundPassword: text(20),
  },
  { additionalProperties: false },
);

export const VerifyFundPasswordBody = Type.Object({ fundPassword: text(20) }, { additionalProperties: false });

/** The signed-in user; a named component. */
export const Me = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    username: Type.String(),
    nickname: Type.Union([Type.String(), Type.Null()]),
    email: Type.String(),
    emailMasked: Type.String({ description: 'e.g. "al***@example.com"' }),
    country: Type.String(),
    hasFundPassword: Type.Boolean(),
    createdAt: Type.String({ format: 'date-time' }),
  },
  { $id: 'Me', additionalProperties: false },
);
export type Me = Static<typeof Me>;

export const meRef = Type.Unsafe<Me>(Type.Ref('Me'));

export const UserResult = Type.Object({ user: meRef }, { additionalProperties: false });
export const FactorRequiredResult = Type.Object(
  { factorRequired: Type.Literal(true) },
  { additionalProperties: false, description: 'The password was right; the second factor is still required' },
);
export const DeviceConfirmationRequiredResult = Type.Object(
  { deviceConfirmationRequired: Type.Literal(true) },
  {
    additionalProperties: false,
    description:
      'Signed in from a browser not seen before: the session waits for the e-mailed code ' +
      '(POST /api/auth/device/confirm) or link; every other route answers DEVICE_CONFIRMATION_REQUIRED until then',
  },
);
export const SessionUser = Type.Object({ user: Type.Union([meRef, Type.Null()]) }, { additionalProperties: false });

export const SessionInfo = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    createdAt: Type.String({ format: 'date-time' }),
    lastSeenAt: Type.String({ format: 'date-time' }),
    userAgent: Type.Union([Type.String(), Type.Null()]),
    ip: Type.Union([Type.String(), Type.Null()]),
    device: Type.Object(
      {
        browser: Type.Union([Type.String(), Type.Null()]),
        os: Type.Union([Type.String(), Type.Null()]),
        platform: Type.Union([Type.String(), Type.Null()]),
      },
      { additionalProperties: false, description: 'Parsed from the User-Agent' },
    ),
    place: Type.Object(
      {
        country: Type.Union([Type.String(), Type.Null()]),
        region: Type.Union([Type.String(), Type.Null()]),
        city: Type.Union([Type.String(), Type.Null()]),
      },
      { additionalProperties: false, description: 'Approximate, from offline IP data' },
    ),
    current: Type.Boolean(),
  },
  { additionalProperties: false },
);
export type SessionInfo = Static<typeof SessionInfo>;

export const SessionList = Type.Object({ sessions: Type.Array(SessionInfo) }, { additionalProperties: false });

export const RevokedCount = Type.Object({ revoked: Type.Integer({ minimum: 0 }) }, { additionalProperties: false });

export const SessionIdParams = Type.Object(
  { id: Type.String({ pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$' }) },
  { additionalProperties: false },
);

export const NoContent = Type.Null({ description: 'No content' });
