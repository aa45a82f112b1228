import type { Generated } from 'kysely';

/** Operators' passkeys (migration 0100); `Database` in schema.ts extends `OperatorPasskeysDatabase`. */
export interface OperatorPasskeysDatabase {
  operator_passkeys: OperatorPasskeysTable;
  operator_webauthn_challenges: OperatorWebauthnChallengesTable;
}

export type OperatorChallengePurpose = 'register' | 'login';

export interface OperatorPasskeysTable {
  id: Generated<string>;
  operator_id: string;
  /** base64url, as the browser sends it back. */
  credential_id: string;
  /** The COSE public key. */
  public_key: Buffer;
  /** The authenticator's signature counter (int8, read as a string); 0: it keeps none. */
  sign_count: Generated<string>;
  transports: Generated<string[]>;
  device_type: 'singleDevice' | 'multiDevice';
  backed_up: boolean;
  name: string;
  created_at: Date;
  last_used_at: Date | null;
  /** Set when the counter went backwards: refused until removed. */
  suspended_at: Generated<Date | null>;
}

export interface OperatorWebauthnChallengesTable {
  /** base64url, as it comes back in clientDataJSON. */
  challenge: string;
  purpose: OperatorChallengePurpose;
  /** The registering operator; null for a sign-in. */
  operator_id: string | null;
  /** The session id (registration) or the SHA-256 of the sign-in nonce cookie. */
  binding: string;
  created_at: Date;
  expires_at: Date;
}
