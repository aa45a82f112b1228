import type { Generated } from 'kysely';

/** Second factors (migration 0070); `Database` in schema.ts extends `SecurityDatabase`. */
export interface SecurityDatabase {
  user_totp: UserTotpTable;
  recovery_codes: RecoveryCodesTable;
  login_attempts: LoginAttemptsTable;
  account_freezes: AccountFreezesTable;
  freeze_links: FreezeLinksTable;
}

/** The freeze link of a security mail, by the SHA-256 of its token (migration 0076). */
export interface FreezeLinksTable {
  token_hash: Buffer;
  user_id: string;
  created_at: Date;
  /** After this the link does nothing (migration 0090; FREEZE_LINK_TTL_MS from created_at). */
  expires_at: Date;
}

/** A user's self-service freeze (migration 0076): frozen while thaws_at is null or ahead. */
export interface AccountFreezesTable {
  user_id: string;
  frozen_at: Date;
  via: 'settings' | 'mail_link';
  unfreeze_requested_at: Date | null;
  thaws_at: Date | null;
}

export const loginMethods = [
  'password',
  'password+totp',
  'password+recovery_code',
  'password+passkey',
  'passkey',
] as const;
export const loginResults = [
  'succeeded',
  'failed',
  'throttled',
  'factor_pending',
  'factor_failed',
  // New-device confirmation (migration 0080): the sign-in waits for the e-mail, then is confirmed.
  'device_pending',
  'device_confirmed',
] as const;

/** Sign-in attempts on known accounts (migration 0071). */
export interface LoginAttemptsTable {
  id: Generated<string>;
  user_id: string;
  occurred_at: Date;
  ip: string | null;
  user_agent: string | null;
  method: (typeof loginMethods)[number];
  result: (typeof loginResults)[number];
  /** Approximate place of `ip` at the sign-in (migration 0079, lib/ip-place.ts); null when unknown. */
  country: Generated<string | null>;
  region: Generated<string | null>;
  city: Generated<string | null>;
}

export interface UserTotpTable {
  user_id: string;
  /** AES-256-GCM sealed base32 secret (modules/payment-methods/sealing.ts), bound to the user. */
  secret_sealed: Buffer;
  /** Null while enrolment waits for its first code: the factor is off until then. */
  confirmed_at: Date | null;
  /** The newest accepted RFC 6238 time step (int8, read as a string); a code at or before it is refused. */
  last_used_step: string | null;
  created_at: Date;
}

export interface RecoveryCodesTable {
  id: Generated<string>;
  user_id: string;
  salt: Buffer;
  /** SHA-256(salt ‖ normalized code). */
  code_hash: Buffer;
  created_at: Date;
  used_at: Date | null;
}
