import { type Static, Type } from 'typebox';

/**
 * The JSON shapes of WebAuthn ceremonies as @simplewebauthn/browser 14 sends and reads them (WebAuthn
 * L3 "toJSON" forms). Binary fields are base64url strings; lengths are bounded so a body cannot grow
 * without limit.
 */
const B64u = (maxLength: number, description?: string) =>
  Type.String({ pattern: '^[A-Za-z0-9_-]*$', maxLength, ...(description ? { description } : {}) });
const Transports = Type.Array(Type.String({ maxLength: 32 }), { maxItems: 8 });
const Extensions = Type.Object({}, { additionalProperties: true, description: 'Client extension results' });
const Attachment = Type.Optional(Type.Union([Type.Literal('platform'), Type.Literal('cross-platform')]));
const CredentialRef = Type.Object(
  { id: Type.String(), type: Type.String(), transports: Type.Optional(Type.Array(Type.String())) },
  { additionalProperties: false },
);

export const PasskeyRegistration = Type.Object(
  {
    id: B64u(1400),
    rawId: B64u(1400),
    type: Type.Literal('public-key'),
    response: Type.Object(
      {
        clientDataJSON: B64u(4096),
        attestationObject: B64u(16384),
        authenticatorData: Type.Optional(B64u(16384)),
        transports: Type.Optional(Transports),
        publicKeyAlgorithm: Type.Optional(Type.Integer({ minimum: -65535, maximum: 65535 })),
        publicKey: Type.Optional(B64u(4096)),
      },
      { additionalProperties: false },
    ),
    authenticatorAttachment: Attachment,
    clientExtensionResults: Extensions,
  },
  { additionalProperties: false, description: 'The answer of navigator.credentials.create(), as JSON' },
);

export const PasskeyAssertion = Type.Object(
  {
    id: B64u(1400),
    rawId: B64u(1400),
    type: Type.Literal('public-key'),
    response: Type.Object(
      {
        clientDataJSON: B64u(4096),
        authenticatorData: B64u(4096),
        signature: B64u(2048),
        userHandle: Type.Optional(B64u(256)),
      },
      { additionalProperties: false },
    ),
    authenticatorAttachment: Attachment,
    clientExtensionResults: Extensions,
  },
  {
    additionalProperties: false,
    description: 'The answer of navigator.credentials.get() to a passkey challenge, as JSON',
  },
);

export const PasskeyCreationOptions = Type.Object(
  {
    challenge: Type.String(),
    rp: Type.Object({ name: Type.String(), id: Type.Optional(Type.String()) }),
    user: Type.Object({ id: Type.String(), name: Type.String(), displayName: Type.String() }),
    pubKeyCredParams: Type.Array(Type.Object({ alg: Type.Integer(), type: Type.String() })),
    timeout: Type.Optional(Type.Integer()),
    excludeCredentials: Type.Optional(Type.Array(CredentialRef)),
    authenticatorSelection: Type.Optional(
      Type.Object({
        authenticatorAttachment: Type.Optional(Type.String()),
        residentKey: Type.Optional(Type.String()),
        requireResidentKey: Type.Optional(Type.Boolean()),
        userVerification: Type.Optional(Type.String()),
      }),
    ),
    attestation: Type.Optional(Type.String()),
    hints: Type.Optional(Type.Array(Type.String())),
    extensions: Type.Optional(Type.Object({ credProps: Type.Optional(Type.Boolean()) })),
  },
  { description: 'PublicKeyCredentialCreationOptionsJSON: hand to startRegistration({ optionsJSON })' },
);

export const PasskeyRequestOptions = Type.Object(
  {
    challenge: Type.String(),
    rpId: Type.Optional(Type.String()),
    timeout: Type.Optional(Type.Integer()),
    allowCredentials: Type.Optional(Type.Array(CredentialRef)),
    userVerification: Type.Optional(Type.String()),
    hints: Type.Optional(Type.Array(Type.String())),
  },
  { description: 'PublicKeyCredentialRequestOptionsJSON: hand to startAuthentication({ optionsJSON })' },
);

export const PasskeyName = Type.String({ minLength: 1, maxLength: 64, pattern: '\\S' });

/** ASVS 7.4.3: a factor change offers to end every other session (as a password change does); default yes. */
const EndOtherSessions = Type.Boolean({
  default: true,
  description: 'End every other session of the account (default true)',
});

export const PasskeyRegisterBody = Type.Object(
  { name: PasskeyName, response: PasskeyRegistration, endOtherSessions: Type.Optional(EndOtherSessions) },
  { additionalProperties: false },
);
export const PasskeyRemoveQuery = Type.Object(
  { endOtherSessions: Type.Optional(EndOtherSessions) },
  { additionalProperties: false },
);
export type PasskeyRegisterBody = Static<typeof PasskeyRegisterBody>;

export const PasskeyRenameBody = Type.Object({ name: PasskeyName }, { additionalProperties: false });
export const PasskeyLoginBody = Type.Object({ response: PasskeyAssertion }, { additionalProperties: false });
export const PasskeyIdParams = Type.Object({ id: Type.String({ format: 'uuid' }) }, { additionalProperties: false });

export const PasskeyView = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    name: Type.String(),
    createdAt: Type.String({ format: 'date-time' }),
    lastUsedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    synced: Type.Boolean({ description: 'A synced (multi-device) passkey' }),
    backedUp: Type.Boolean(),
    transports: Type.Array(Type.String()),
    suspended: Type.Boolean({
      description: 'Its signature counter went backwards (a cloned key): it answers nothing until removed',
    }),
  },
  { additionalProperties: false },
);

export const PasskeyList = Type.Object(
  { passkeys: Type.Array(PasskeyView), max: Type.Integer({ description: 'At most this many per account' }) },
  { additionalProperties: false },
);

export const PasskeyRegistered = Type.Object(
  {
    passkey: PasskeyView,
    recoveryCodes: Type.Union([Type.Array(Type.String()), Type.Null()], {
      description: 'New recovery codes when this is the first factor (shown this once); else null',
    }),
  },
  { additionalProperties: false },
);

/** Which check the step-up challenge is for (an answer for one is refused by the other). */
export const PasskeyChallengeBody = Type.Object(
  { purpose: Type.Optional(Type.Union([Type.Literal('step_up'), Type.Literal('reauth')])) },
  { additionalProperties: false },
);
