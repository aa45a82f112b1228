import { Type } from 'typebox';
import { loginMethods } from '../../db/schema-security.ts';
import { StringEnum } from '../../schema/string-enum.ts';

const Nullable = (schema: ReturnType<typeof Type.String>) => Type.Union([schema, Type.Null()]);
const Time = () => Type.String({ format: 'date-time' });

export const SecurityLocks = Type.Object(
  {
    locks: Type.Array(
      Type.Object(
        {
          kind: StringEnum(['outflow_hold', 'account_frozen', 'reorg_hold'] as const),
          reason: Nullable(
            Type.String({
              description:
                'outflow_hold: the security change that started it (password_reset, password_changed, ' +
                'fund_password_changed, totp_enabled, totp_disabled, passkey_added, passkey_removed, ' +
                'passkey_counter_regressed, …); null otherwise',
            }),
          ),
          since: Nullable(Time()),
          until: Nullable(Time()),
        },
        {
          additionalProperties: false,
          description: 'until null: held until someone acts (an unfreeze asked for, an operator resolving a reorg)',
        },
      ),
    ),
  },
  { additionalProperties: false, description: 'What keeps coins in the account now; empty when nothing does' },
);

export const SecurityOverview = Type.Object(
  {
    factors: Type.Object(
      {
        totp: Type.Boolean({ description: 'An authenticator app is on' }),
        passkeys: Type.Integer({ minimum: 0 }),
        recoveryCodesLeft: Type.Integer({ minimum: 0 }),
      },
      { additionalProperties: false },
    ),
    allowlist: Type.Object(
      { on: Type.Boolean(), offAt: Nullable(Time()) },
      { additionalProperties: false, description: 'offAt: a requested turn-off takes effect then (on until then)' },
    ),
    locks: SecurityLocks.properties.locks,
    lastSignIn: Type.Union([
      Type.Object(
        {
          at: Time(),
          ip: Nullable(Type.String()),
          device: Type.Object(
            { browser: Nullable(Type.String()), os: Nullable(Type.String()), platform: Nullable(Type.String()) },
            { additionalProperties: false },
          ),
          place: Type.Object(
            { country: Nullable(Type.String()), region: Nullable(Type.String()), city: Nullable(Type.String()) },
            { additionalProperties: false },
          ),
          method: StringEnum(loginMethods),
        },
        { additionalProperties: false },
      ),
      Type.Null(),
    ]),
    failedSinceLastSignIn: Type.Integer({ minimum: 0, maximum: 100, description: 'Counted up to 100' }),
    next: Type.Array(
      StringEnum(['add_passkey', 'add_authenticator', 'turn_on_allowlist', 'new_recovery_codes'] as const),
    ),
  },
  { additionalProperties: false },
);

export const FactorKinds = Type.Object(
  { totp: Type.Boolean(), passkey: Type.Boolean(), recoveryCode: Type.Boolean() },
  { additionalProperties: false },
);
