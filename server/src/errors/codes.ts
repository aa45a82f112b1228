import type { Static } from 'typebox';
import { StringEnum } from '../schema/string-enum.ts';

/**
 * The closed set of error codes the API can return, each with its HTTP status.
 * This table is the ONE place where codes are mapped to statuses.
 *
 * To add a code: add a line here (SCREAMING_SNAKE_CASE, with its status),
 * run `npm run gen:api -w server` so the OpenAPI document and the client
 * types pick it up, and add a translation in the UI.
 */
export const errorStatus = {
  VALIDATION_FAILED: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  CROSS_SITE_REQUEST: 403,
  NOT_FOUND: 404,
  /** The path exists, not with this method: the `Allow` header lists the ones it has. */
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  SERVICE_UNAVAILABLE: 503,
  // Accounts & security (modules/auth).
  PASSWORD_MISMATCH: 400,
  WEAK_PASSWORD: 400,
  /** A new login password must differ from the current one. */
  PASSWORD_UNCHANGED: 400,
  COMMON_PASSWORD: 400,
  /** The login password is the account's user name or e-mail address. */
  PASSWORD_MATCHES_ACCOUNT: 400,
  /** A fund password of repeated, sequential or common digits (000000, 123456, 121212, ...). */
  GUESSABLE_FUND_PASSWORD: 400,
  AGREEMENT_REQUIRED: 400,
  WRONG_VERIFICATION_CODE: 400,
  /** No usable code: never sent, used, expired, replaced or killed by 5 wrong tries. Request a new one. */
  VERIFICATION_CODE_EXPIRED: 400,
  VERIFICATION_CODE_NOT_REQUESTED: 400,
  WRONG_PASSWORD: 400,
  WRONG_FUND_PASSWORD: 400,
  INVALID_CREDENTIALS: 401,
  EMAIL_EXISTS: 409,
  /** An e-mail change to the address the account already has. */
  EMAIL_UNCHANGED: 400,
  USERNAME_EXISTS: 409,
  FUND_PASSWORD_NOT_SET: 409,
  FUND_PASSWORD_LOCKED: 423,
  CODE_RESEND_TOO_SOON: 429,
  CODE_RATE_LIMITED: 429,
  LOGIN_THROTTLED: 429,
  // A user's own mail (modules/user-mail).
  /** More than MAIL_DAILY_LIMIT mails in 24 hours; details.limit and details.retryAfterSeconds. */
  MAIL_DAILY_LIMIT: 429,
  /** A recipient (details, one per field) is neither support nor the user's own address: user mail goes nowhere else. */
  MAIL_RECIPIENT_NOT_ALLOWED: 400,
  // Support (modules/support).
  /** More than 5 left messages an hour from one IP; details.limit and details.retryAfterSeconds. */
  SUPPORT_MESSAGE_RATE_LIMITED: 429,
  // Uploads (modules/uploads) and tickets (modules/tickets).
  /** A file over its place's limit, cut off while reading; details.limit in bytes. */
  FILE_TOO_LARGE: 413,
  /** The bytes are not of a type allowed where the file was sent (whatever its name says). */
  FILE_TYPE_REFUSED: 415,
  /** The user's files would exceed UPLOAD_QUOTA_BYTES; details.limit in bytes. */
  STORAGE_QUOTA_EXCEEDED: 409,
  /** The user already has as many tickets waiting for a reply as allowed (details.limit). */
  TICKET_LIMIT: 409,
  // Ledger (modules/ledger).
  /** The debited account holds less than the amount (available or locked balance). */
  INSUFFICIENT_BALANCE: 409,
  /** An idempotency key already names a different transfer (other kind or legs). */
  IDEMPOTENCY_KEY_REUSED: 409,
  /** The ledger's posting queue is full: retry shortly with the same idempotency key (details.retryAfterSeconds). */
  LEDGER_BUSY: 503,
  // Wallet: withdrawals, sends, address book, history (modules/withdrawals, sends, address-book, history).
  /** Not an address of the chosen network (checksum, format or another network's address). */
  ADDRESS_INVALID: 400,
  AMOUNT_BELOW_MINIMUM: 400,
  AMOUNT_ABOVE_MAXIMUM: 400,
  /** More than the available balance of the coin. */
  AMOUNT_EXCEEDS_AVAILABLE: 400,
  /** The coin/network pair is not enabled for withdrawal (or has no signer). */
  WITHDRAW_DISABLED: 409,
  /** A deposit the user was credited left the chain in a deep reorg: withdrawals wait for an operator. */
  WITHDRAW_FROZEN: 423,
  /** 24 hours after a password reset or fund-password change nothing leaves the account (details.retryAfterSeconds). */
  OUTFLOW_HOLD: 423,
  /**
   * A send would take the day's withdrawals and sends over the USD review budget (details.limit, whole
   * USD); sends have no review step, so it is refused (withdrawals/outflow-budget.ts).
   */
  OUTFLOW_REVIEW_LIMIT: 409,
  /** A send names no user (e-mail or deposit address). */
  RECIPIENT_NOT_FOUND: 404,
  SEND_TO_SELF: 400,
  ADDRESS_BOOK_FULL: 409,
  /** The withdrawal allowlist is on and the target is not a trusted address-book entry (details.reason). */
  ADDRESS_NOT_ALLOWLISTED: 403,
  /** The trusted entry's hold still runs (details.usableAt, retryAfterSeconds). */
  ADDRESS_ALLOWLIST_HOLD: 423,
  /** History filter: from is after to. */
  DATE_RANGE_INVALID: 400,
  // Exchange orders (modules/exchange).
  /** The order's state does not allow this step (the state machine in modules/exchange/states.ts). */
  EXCHANGE_ILLEGAL_TRANSITION: 409,
  /** A fixed rate id that expired or was already used: ask for a new rate. */
  EXCHANGE_RATE_EXPIRED: 409,
  /** No current price for the pair: no rate is offered rather than a blind one. */
  EXCHANGE_RATE_UNAVAILABLE: 503,
  EXCHANGE_PAIR_UNAVAILABLE: 400,
  EXCHANGE_AMOUNT_OUT_OF_RANGE: 400,
  EXCHANGE_ADDRESS_INVALID: 400,
  /** The user already has as many unpaid orders as allowed (details.limit): pay or let one expire first. */
  EXCHANGE_TOO_MANY_OPEN_ORDERS: 409,
  // Prices and convert (modules/prices, modules/convert).
  /** No fresh price for a coin (source down or stale): no quote rather than a blind one. */
  PRICE_UNAVAILABLE: 503,
  /** The two coins of a conversion are the same, or the pair is not offered. */
  CONVERT_PAIR_UNSUPPORTED: 400,
  /** Amount below the minimum or above the maximum of a conversion (details give both). */
  CONVERT_AMOUNT_OUT_OF_RANGE: 400,
  /** The platform's liquidity account holds too little of the coin to pay this conversion. */
  LIQUIDITY_SHORT: 503,
  // Deposits (modules/deposits).
  /** The coin/network pair is not offered for deposit. */
  DEPOSIT_DISABLED: 409,
  /** More than 3 "I have transferred" notices that matched no deposit today (UTC); details.retryAfterSeconds. */
  DEPOSIT_CONFIRM_LIMIT: 429,
  // Rewards (modules/rewards).
  /** The address is not a wallet the user has checked in with ("wallet not connected or none bound"). */
  WALLET_NOT_BOUND: 400,
  /** Rewards exist, but none is 24 hours old yet ("claim failed, return after 24 hours"). */
  CLAIM_TOO_EARLY: 409,
  /** The claimable total is below the minimum ("reward too small ..."); details give the minimum. */
  REWARD_TOO_SMALL: 409,
  /** Nothing to claim or deliver ("the reward is 0"). */
  REWARD_ZERO: 409,
  /** Delivery needs a streak of consecutive check-in days (details give the days needed). */
  STREAK_REQUIRED: 409,
  /** Today's draws are used up ("no more draws"). */
  NO_MORE_DRAWS: 409,
  /** The draw could not be made or paid; nothing was booked ("draw failed"). */
  DRAW_FAILED: 503,
  /** A draw needs a client seed of the user's (set after seeing the next server seed's commitment). */
  CLIENT_SEED_REQUIRED: 409,
  /** The active seed pair was set against another prize table than the configured one: set a new client seed. */
  PRIZE_TABLE_CHANGED: 409,
  /** No user has this invite code, or it is the user's own. */
  INVITE_CODE_INVALID: 400,
  // Payouts (modules/payment-methods).
  /** A user keeps at most this many payout methods (details.limit). */
  PAYMENT_METHOD_LIMIT: 409,
  // Buy and sell through the payment provider (modules/ramp).
  /** The user's country of residence is not Brazil or India ("third-party payment only in Brazil and India"). */
  RAMP_COUNTRY_UNSUPPORTED: 403,
  /** The quote expired (or was used): a new one is shown and must be accepted. */
  RAMP_QUOTE_EXPIRED: 409,
  /** The sell's buyer pays only by chat app and the user has no active chat-app method. */
  RAMP_CHAT_APP_ONLY: 409,
  /** The provider could not be reached or answered nonsense ("service communication failed"). */
  RAMP_PROVIDER_UNAVAILABLE: 503,
  /** The coin/network is not bought or sold here. */
  RAMP_PAIR_UNSUPPORTED: 400,
  // Account security (modules/security): second factors, re-authentication, freeze.
  /** The second factor is required: the code from the authenticator app (or a recovery code). */
  FACTOR_REQUIRED: 400,
  /** Wrong authenticator or recovery code; details.attemptsLeft. */
  WRONG_FACTOR_CODE: 400,
  /** This authenticator code was already accepted once (its 30 s step is spent): wait for the next. */
  FACTOR_CODE_USED: 400,
  /** Too many wrong second-factor codes; details.retryAfterSeconds. */
  FACTOR_THROTTLED: 429,
  /** An authenticator app is already on; remove it first. */
  TOTP_ALREADY_ON: 409,
  /** No authenticator set-up is waiting (or none is on): start again. */
  TOTP_NOT_ENROLLED: 409,
  /** Security changes need the password (and factor) proved within the last 5 minutes: POST /api/me/security/reauth. */
  REAUTH_REQUIRED: 403,
  /** The passkey ceremony's challenge is unknown, used or expired: start again. */
  PASSKEY_CHALLENGE_INVALID: 400,
  /** The passkey's answer did not verify (unknown credential, wrong signature, origin or user). */
  PASSKEY_REJECTED: 401,
  /** The authenticator's signature counter went backwards: a cloned key is possible; refused. */
  PASSKEY_COUNTER_REGRESSED: 403,
  /** At most 10 passkeys per account. */
  PASSKEY_LIMIT: 409,
  /** This passkey is already registered. */
  PASSKEY_EXISTS: 409,
  /** No such passkey on this account. */
  PASSKEY_NOT_FOUND: 404,
  /** The owner froze the account: nothing leaves it until it is unfrozen; details.retryAfterSeconds while an unfreeze waits. */
  ACCOUNT_FROZEN: 423,
  /** The account is not frozen. */
  ACCOUNT_NOT_FROZEN: 409,
  /** Compliance froze the account (issue 32): the owner's unfreeze cannot lift it; support can explain. */
  ACCOUNT_FROZEN_BY_OPERATOR: 423,
  /** Compliance put a hold on withdrawals, sends and sells (issue 32) until they lift it. */
  WITHDRAW_HELD: 423,
  /**
   * Signed in from a browser not seen before: the session is usable once the e-mailed code or link
   * confirms it (POST /api/auth/device/confirm). 401, as every authenticated route already declares it.
   */
  DEVICE_CONFIRMATION_REQUIRED: 401,
  /** The allowlist is on and the sell's payout method is still on its hold (details.until, retryAfterSeconds). */
  PAYOUT_METHOD_ALLOWLIST_HOLD: 423,
} as const satisfies Record<string, number>;

export type ErrorCode = keyof typeof errorStatus;

const errorCodes = Object.keys(errorStatus) as ErrorCode[];

/** TypeBox schema of the closed set; used in the OpenAPI error schema. */
export const ErrorCode = StringEnum(errorCodes, {
  description: 'Machine-readable error code; the UI translates by code.',
});

// Compile-time check that the schema and the table agree.
const _schemaMatchesTable: Static<typeof ErrorCode> extends ErrorCode ? true : never = true;
void _schemaMatchesTable;

export function statusOf(code: ErrorCode): number {
  return errorStatus[code];
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(errorStatus, value);
}
