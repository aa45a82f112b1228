import type { Generated } from 'kysely';
import type { LoginAttemptsTable } from './schema-security.ts';

/** New-device confirmation (migration 0080); `Database` in schema.ts extends `DevicesDatabase`. */
export interface DevicesDatabase {
  known_devices: KnownDevicesTable;
  device_confirmations: DeviceConfirmationsTable;
}

/** A browser the user confirmed, by the SHA-256 of its device cookie. */
export interface KnownDevicesTable {
  id: Generated<string>;
  user_id: string;
  device_hash: Buffer;
  user_agent: string | null;
  first_seen_at: Date;
  last_seen_at: Date;
}

/** A sign-in from an unknown browser waiting for its e-mailed code or link (one per pending session). */
export interface DeviceConfirmationsTable {
  session_id: string;
  user_id: string;
  device_hash: Buffer;
  /** SHA-256 of the approve link's token. */
  link_hash: Buffer;
  /** The verification_codes row of the code in the mail (null until mailed, or after retention). */
  code_id: string | null;
  /** How the sign-in proved the user (the login history's method), recorded again at the confirmation. */
  method: LoginAttemptsTable['method'];
  created_at: Date;
  expires_at: Date;
  confirmed_at: Date | null;
  /** Code guesses charged to this sign-in, over all its mails (at most the code limit's maxAttempts). */
  code_attempts: Generated<number>;
}
