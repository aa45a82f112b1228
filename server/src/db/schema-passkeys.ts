import type { Generated } from 'kysely';

/** Passkeys (migration 0074); `Database` in schema.ts extends `PasskeysDatabase`. */
export interface PasskeysDatabase {
  user_passkeys: UserPasskeysTable;
  webauthn_challenges: WebauthnChallengesTable;
}

export const challengePurposes = ['register', 'login', 'factor', 'step_up', 'reauth'] as const;
export type ChallengePurpose = (typeof challengePurposes)[number];

export interface UserPasskeysTable {
  id: Generated<string>;
  user_id: string;
  /** base64url, as the browser sends it back. */
  credential_id: string;
  /** The COSE public key. */
  public_key: Buffer;
  /** The authenticator's signature counter (int8, read as a string); 0: it keeps none. */
  sign_count: Generated<string>;
  transports: Generated<string[]>;
  device_type: 'singleDevice' | 'multiDevice';
  backed_up: boolean;
  aaguid: string | null;
  name: string;
  created_at: Date;
  last_used_at: Date | null;
  /** Set when the counter went backwards (migration 0075): refused until removed. */
  suspended_at: Generated<Date | null>;
}

export interface WebauthnChallengesTable {
  /** base64url, as it comes back in clientDataJSON. */
  challenge: string;
  purpose: ChallengePurpose;
  user_id: string | null;
  /** Where it was issued (migration 0075): a session id, or the SHA-256 of the sign-in nonce cookie. */
  binding: string;
  created_at: Date;
  expires_at: Date;
}
