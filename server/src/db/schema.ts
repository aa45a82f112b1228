import type { ColumnType, Generated } from 'kysely';
import type { walletTypes } from '../modules/address-book/schemas.ts';
import type { CodePurposeValue } from '../modules/auth/schemas.ts';
import type { CoinCode, NetworkCode } from '../modules/catalogue/catalogue.ts';
import type { AccountKind, ChainAsset, TransferKind } from '../modules/ledger/model.ts';
import type { recipientKinds } from '../modules/sends/schemas.ts';
import type { fiatCurrencies, languages, priceColors, quickBuyCoins } from '../modules/settings/schemas.ts';
import type { AllowlistDatabase } from './schema-allowlist.ts';
import type { ClientEventsDatabase } from './schema-client-events.ts';
import type { ConvertDatabase } from './schema-convert.ts';
import type { CustodyDatabase } from './schema-custody.ts';
import type { DepositsDatabase } from './schema-deposits.ts';
import type { DevicesDatabase } from './schema-devices.ts';
import type { ExchangeDatabase } from './schema-exchange.ts';
import type { MoneyChecksDatabase } from './schema-money-checks.ts';
import type { NoticesDatabase } from './schema-notices.ts';
import type { OperatorPasskeysDatabase } from './schema-operator-passkeys.ts';
import type { OpsUsersDatabase } from './schema-ops-users.ts';
import type { PasskeysDatabase } from './schema-passkeys.ts';
import type { PayoutsDatabase } from './schema-payouts.ts';
import type { PorDatabase } from './schema-por.ts';
import type { RampDatabase } from './schema-ramp.ts';
import type { ReorgsDatabase } from './schema-reorgs.ts';
import type { RewardsDatabase } from './schema-rewards.ts';
import type { SecurityDatabase } from './schema-security.ts';
import type { SupportDatabase } from './schema-support.ts';
import type { WithdrawalReviewDatabase } from './schema-withdrawal-review.ts';
import type { WithdrawalsDatabase } from './schema-withdrawals.ts';

export type {
  SignerTransactionState,
  SignerTransactionsTable,
  WithdrawalNonceCancelsTable,
  WithdrawalsTable,
} from './schema-withdrawals.ts';

/**
 * Table types for Kysely. Coin, network, state and kind columns carry the domain's unions (their
 * CHECK constraints or triggers hold the same sets), so rows need no casts. Columns are snake_case, as in SQL; repositories map
 * rows to API shapes. Add a table here in the same change as its migration.
 */
export interface Database
  extends NoticesDatabase,
    SupportDatabase,
    RewardsDatabase,
    PayoutsDatabase,
    RampDatabase,
    PorDatabase,
    DepositsDatabase,
    ReorgsDatabase,
    CustodyDatabase,
    ExchangeDatabase,
    ConvertDatabase,
    SecurityDatabase,
    PasskeysDatabase,
    AllowlistDatabase,
    DevicesDatabase,
    WithdrawalReviewDatabase,
    OpsUsersDatabase,
    OperatorPasskeysDatabase,
    MoneyChecksDatabase,
    ClientEventsDatabase,
    WithdrawalsDatabase {
  users: UsersTable;
  user_settings: UserSettingsTable;
  accounts: AccountsTable;
  sessions: SessionsTable;
  verification_codes: VerificationCodesTable;
  throttles: ThrottlesTable;
  outbox: OutboxTable;
  audit_events: AuditEventsTable;
  ledger_accounts: LedgerAccountsTable;
  ledger_transfers: LedgerTransfersTable;
  ledger_entries: LedgerEntriesTable;
  sends: SendsTable;
  address_book: AddressBookTable;
}

/** Minimal for now; the auth module extends it in later migrations. */
export interface UsersTable {
  id: Generated<string>;
  created_at: ColumnType<Date, Date | undefined, never>;
}

export interface UserSettingsTable {
  user_id: string;
  language: (typeof languages)[number];
  price_color: (typeof priceColors)[number];
  fiat_currency: (typeof fiatCurrencies)[number];
  quick_buy_enabled: boolean;
  quick_buy_coin: (typeof quickBuyCoins)[number];
  /** numeric(11,2): read as a string such as "100.00". */
  quick_buy_fiat_amount: string;
  updated_at: Date;
}

/** Credentials and profile of a user (modules/auth). `email` is stored lower-cased. */
export interface AccountsTable {
  user_id: string;
  username: string;
  email: string;
  nickname: string | null;
  country: string;
  password_hash: string;
  fund_password_hash: string | null;
  created_at: Date;
  updated_at: Date;
}

export interface SessionsTable {
  id: Generated<string>;
  user_id: string;
  /** SHA-256 of the cookie token. */
  token_hash: Buffer;
  created_at: Date;
  last_seen_at: Date;
  /** Absolute expiry. */
  expires_at: Date;
  revoked_at: Date | null;
  user_agent: string | null;
  ip: string | null;
  /** A password sign-in waiting for the second factor: no route accepts it (migration 0070). */
  factor_pending: Generated<boolean>;
  /** When this session last proved the password (and factor); security changes need it recent. */
  authenticated_at: Date | null;
  /** A sign-in from an unknown browser waiting for the e-mailed confirmation (migration 0080). */
  device_pending: Generated<boolean>;
}

export interface VerificationCodesTable {
  id: Generated<string>;
  email: string;
  /** 'new_device': the code of a new-device confirmation (never asked for through POST /auth/codes). */
  purpose: CodePurposeValue | 'new_device';
  user_id: string | null;
  salt: Buffer;
  /** SHA-256(salt || purpose || code). */
  code_hash: Buffer;
  attempts: Generated<number>;
  created_at: Date;
  expires_at: Date;
  consumed_at: Date | null;
  ip: string | null;
}

export interface ThrottlesTable {
  key: string;
  failures: number;
  first_failure_at: Date;
  last_failure_at: Date;
  locked_until: Date | null;
}

/** A file of the upload store to send with a mail (outbox.attachments). */
export interface MailAttachment {
  filename: string;
  contentType: string;
  objectKey: string;
}

export interface OutboxTable {
  id: Generated<string>;
  to_address: string;
  subject: string;
  text: string;
  html: string | null;
  created_at: Date;
  attempts: Generated<number>;
  next_attempt_at: Date;
  last_error: string | null;
  sent_at: Date | null;
  delivered_via: string | null;
  failed_at: Date | null;
  /** A user's mail (modules/user-mail): replies go to the user. */
  reply_to: Generated<string | null>;
  /** Files from the upload store, read when the mail is sent (migration 0021). */
  attachments: ColumnType<MailAttachment[] | null, string | null | undefined, string | null>;
}

/** Append-only: UPDATE, DELETE and TRUNCATE raise. */
export interface AuditEventsTable {
  id: Generated<string>;
  occurred_at: Date;
  event: string;
  user_id: string | null;
  ip: string | null;
  details: ColumnType<Record<string, unknown>, string | undefined, never>;
  /** The hash chain (migration 0085): set at commit by a trigger, never by the application. */
  chain_seq: ColumnType<string | null, never, never>;
  prev_hash: ColumnType<Buffer | null, never, never>;
  hash: ColumnType<Buffer | null, never, never>;
}

/**
 * Ledger (modules/ledger). bigserial ids and NUMERIC(78,0) amounts are read as decimal strings
 * (pg does not parse them, so no precision is lost); the ledger converts them to bigint.
 */
export interface LedgerAccountsTable {
  id: Generated<string>;
  kind: AccountKind;
  user_id: string | null;
  /** A coin, or a chain asset `<COIN>@<network>` on the custody book's accounts (migration 0037). */
  asset: CoinCode | ChainAsset;
  /** 0, or a conversion lane of a system liquidity/fees account (migration 0034). */
  lane: ColumnType<number, number | undefined, never>;
  balance: ColumnType<string, string | undefined, string>;
  created_at: ColumnType<Date, Date | undefined, never>;
}

export interface LedgerTransfersTable {
  id: Generated<string>;
  idempotency_key: string;
  kind: TransferKind;
  created_at: Date;
  metadata: ColumnType<Record<string, unknown>, string | undefined, never>;
}

/** Immutable: UPDATE, DELETE and TRUNCATE raise. */
export interface LedgerEntriesTable {
  id: Generated<string>;
  transfer_id: string;
  account_id: string;
  amount: string;
  balance_before: string;
  balance_after: string;
  created_at: Date;
}

/** Sends between users (modules/sends): one ledger internal_send each. */
export interface SendsTable {
  id: Generated<string>;
  from_user_id: string;
  to_user_id: string;
  idempotency_key: string;
  coin: CoinCode;
  amount_minor: string;
  recipient_kind: (typeof recipientKinds)[number];
  recipient: string;
  network: NetworkCode | null;
  ledger_transfer_id: string;
  /** NUMERIC(78,0): USD cents (rounded up) when placed (migration 0067); null before it. */
  value_usd_cents: Generated<string | null>;
  created_at: Date;
}

export interface AddressBookTable {
  id: Generated<string>;
  user_id: string;
  name: string;
  wallet_type: (typeof walletTypes)[number];
  network: NetworkCode;
  address: string;
  remark: string | null;
  created_at: Date;
  updated_at: Date;
  /** Marked trusted for the withdrawal allowlist (migration 0078); null when not. */
  trusted_at: Generated<Date | null>;
  /** When a trusted entry becomes usable under the allowlist (trusted_at + the hold then configured). */
  usable_at: Generated<Date | null>;
}
