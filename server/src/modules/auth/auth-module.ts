import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { createSealer } from '../payment-methods/sealing.ts';
import { createEmailChange, type EmailChange } from '../security/email-change.ts';
import { createSecondFactors, type SecondFactors } from '../security/factors-service.ts';
import { UNFREEZE_HOLD_MS } from '../security/freeze.ts';
import { createFreezeService, type FreezeService } from '../security/freeze-service.ts';
import { createNewDevices, type NewDevices } from '../security/new-device.ts';
import { createPasskeys, type Passkeys } from '../security/passkeys-service.ts';
import { createReauth, type Reauth } from '../security/reauth.ts';
import { defaultWebAuthnOptions, type WebAuthnOptions } from '../security/webauthn-config.ts';
import { type AccountsService, createAccountsService } from './accounts-service.ts';
import { createFundPasswordService, type FundPasswordService } from './fund-password-service.ts';
import { createPasswordHasher, type PasswordHasher } from './password-hashing.ts';
import { createSessions, type SessionOptions, type Sessions } from './sessions.ts';
import { createSessionsService, type SessionsEndedHook, type SessionsService } from './sessions-service.ts';
import { pgThrottleStore, type ThrottleStore } from './throttles.ts';
import { type CodeLimits, createVerificationCodes, type VerificationCodes } from './verification-codes.ts';

export interface AuthOptions {
  session?: Partial<SessionOptions>;
  codeLimits?: Partial<CodeLimits>;
  /** Default: argon2id with the OWASP parameters. */
  hasher?: PasswordHasher;
  /** Failed-attempt counters; default: in PostgreSQL (Redis when REDIS_URL is set: app.ts). */
  throttles?: ThrottleStore;
  /** The AES-256-GCM key second-factor secrets are sealed with (the payout data key); default: a random one. */
  sealKey?: Buffer;
  /** Where passkeys are valid (WEBAUTHN_RP_ID, WEBAUTHN_ORIGINS); default: localhost, any port. */
  webauthn?: Partial<WebAuthnOptions>;
  /**
   * Runs in the transaction that ends a user's other sessions (sign out others, a password change or
   * reset): work in flight a thief's session may have started ends with them (app.ts: pending sells).
   */
  onSessionsEnded?: SessionsEndedHook;
  /** Runs in the transaction that freezes an account, after the outflow lock (app.ts: sells end). */
  onAccountFrozen?: SessionsEndedHook;
  /** The app's public origin (PUBLIC_ORIGIN), for the links in security mails; default http://127.0.0.1:3000. */
  publicOrigin?: string;
  /** How long an unfreeze waits (UNFREEZE_HOLD_HOURS); default 24 h. */
  unfreezeHoldMs?: number;
}

export interface AuthModule {
  db: Kysely<Database>;
  now: () => Date;
  sessions: Sessions;
  codes: VerificationCodes;
  accounts: AccountsService;
  fundPassword: FundPasswordService;
  sessionsService: SessionsService;
  /** The authenticator app and recovery codes (modules/security). */
  factors: SecondFactors;
  /** Passkeys (WebAuthn): registration, sign-in and step-up ceremonies. */
  passkeys: Passkeys;
  /** Where passkeys are valid and how often an IP may ask for sign-in options. */
  webauthn: WebAuthnOptions;
  /** Proving the password (and factor) again before a security change. */
  reauth: Reauth;
  /** Self-service freeze and unfreeze (modules/security/freeze-service.ts). */
  freeze: FreezeService;
  /** New-device confirmation of sign-ins (modules/security/new-device.ts). */
  devices: NewDevices;
  /** Changing the account's e-mail address (modules/security/email-change.ts). */
  emailChange: EmailChange;
  publicOrigin: string;
  /** The failed-attempt counters, shared with the operators module. */
  throttles: ThrottleStore;
  /** The argon2id hasher, shared with the operators module (one pool of hashing threads). */
  hasher: PasswordHasher;
  /** Releases the hashing threads (when the module created the hasher). */
  close(): Promise<void>;
}

/** Wires the accounts & security services. `onMailQueued` wakes the outbox worker after a commit. */
export function createAuthModule(
  deps: { db: Kysely<Database>; now: () => Date; onMailQueued?: () => void } & AuthOptions,
): AuthModule {
  const { db, now } = deps;
  const hasher = deps.hasher ?? createPasswordHasher();
  const onSessionsEnded = deps.onSessionsEnded ?? (async () => {});
  const throttles = deps.throttles ?? pgThrottleStore(db);
  const webauthn: WebAuthnOptions = { ...defaultWebAuthnOptions, ...deps.webauthn };
  const publicOrigin = deps.publicOrigin ?? 'http://127.0.0.1:3000';
  const passkeys = createPasskeys({
    db,
    now,
    webauthn,
    publicOrigin,
    ...(deps.onMailQueued ? { onMailQueued: deps.onMailQueued } : {}),
  });
  const factors = createSecondFactors({
    db,
    now,
    throttles,
    passkeys,
    publicOrigin,
    sealer: createSealer(deps.sealKey ?? randomBytes(32)),
    ...(deps.onMailQueued ? { onMailQueued: deps.onMailQueued } : {}),
  });
  const sessions = createSessions({ db, now, ...(deps.session ? { options: deps.session } : {}) });
  const codes = createVerificationCodes({
    db,
    now,
    publicOrigin,
    ...(deps.codeLimits ? { limits: deps.codeLimits } : {}),
    ...(deps.onMailQueued ? { onMailQueued: deps.onMailQueued } : {}),
  });
  const devices = createNewDevices({ db, now, sessions, codes, publicOrigin });
  const reauth = createReauth({ db, now, hasher, throttles, factors });
  const freeze = createFreezeService({
    db,
    now,
    codes,
    reauth,
    publicOrigin,
    unfreezeHoldMs: deps.unfreezeHoldMs ?? UNFREEZE_HOLD_MS,
    ...(deps.onAccountFrozen ? { onFrozen: deps.onAccountFrozen } : {}),
    ...(deps.onMailQueued ? { onMailQueued: deps.onMailQueued } : {}),
  });
  const emailChange = createEmailChange({
    db,
    now,
    codes,
    factors,
    onSessionsEnded,
    publicOrigin,
    ...(deps.onMailQueued ? { onMailQueued: deps.onMailQueued } : {}),
  });
  return {
    db,
    now,
    sessions,
    codes,
    freeze,
    devices,
    emailChange,
    publicOrigin,
    accounts: createAccountsService({
      db,
      now,
      hasher,
      sessions,
      devices,
      factors,
      codes,
      throttles,
      onSessionsEnded,
      publicOrigin,
      ...(deps.onMailQueued ? { onMailQueued: deps.onMailQueued } : {}),
    }),
    fundPassword: createFundPasswordService({ db, now, hasher, codes, throttles }),
    factors,
    passkeys,
    webauthn,
    reauth,
    sessionsService: createSessionsService({ db, now, sessions, onSessionsEnded }),
    throttles,
    hasher,
    close: () => (deps.hasher ? Promise.resolve() : hasher.close()),
  };
}
