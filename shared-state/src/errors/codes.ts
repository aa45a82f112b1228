/**
 * Every error code the UI knows: the server's closed ErrorCode union
 * (server/src/errors/codes.ts, also in the generated OpenAPI document) plus
 * the codes the client produces itself. errors.test.ts fails when the server
 * adds a code that has no entry (and so no translation) here.
 */
export const SERVER_ERROR_CODES = [
  'VALIDATION_FAILED',
  'UNAUTHENTICATED',
  'FORBIDDEN',
  'CROSS_SITE_REQUEST',
  'NOT_FOUND',
  'METHOD_NOT_ALLOWED',
  'CONFLICT',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'RATE_LIMITED',
  'INTERNAL',
  'SERVICE_UNAVAILABLE',
  'PASSWORD_MISMATCH',
  'WEAK_PASSWORD',
  'PASSWORD_UNCHANGED',
  'COMMON_PASSWORD',
  'PASSWORD_MATCHES_ACCOUNT',
  'GUESSABLE_FUND_PASSWORD',
  'MAIL_DAILY_LIMIT',
  'SUPPORT_MESSAGE_RATE_LIMITED',
  'FILE_TOO_LARGE',
  'FILE_TYPE_REFUSED',
  'STORAGE_QUOTA_EXCEEDED',
  'TICKET_LIMIT',
  'EMAIL_EXISTS',
  'USERNAME_EXISTS',
  'WRONG_VERIFICATION_CODE',
  'VERIFICATION_CODE_EXPIRED',
  'VERIFICATION_CODE_NOT_REQUESTED',
  'AGREEMENT_REQUIRED',
  'INVALID_CREDENTIALS',
  'LOGIN_THROTTLED',
  'CODE_RESEND_TOO_SOON',
  'CODE_RATE_LIMITED',
  'WRONG_PASSWORD',
  'WRONG_FUND_PASSWORD',
  'FUND_PASSWORD_LOCKED',
  'FUND_PASSWORD_NOT_SET',
  'INSUFFICIENT_BALANCE',
  'IDEMPOTENCY_KEY_REUSED',
  'PRICE_UNAVAILABLE',
  'CONVERT_PAIR_UNSUPPORTED',
  'CONVERT_AMOUNT_OUT_OF_RANGE',
  'LIQUIDITY_SHORT',
  'DEPOSIT_DISABLED',
  'DEPOSIT_CONFIRM_LIMIT',
  'ADDRESS_INVALID',
  'AMOUNT_BELOW_MINIMUM',
  'AMOUNT_ABOVE_MAXIMUM',
  'AMOUNT_EXCEEDS_AVAILABLE',
  'WITHDRAW_DISABLED',
  'RECIPIENT_NOT_FOUND',
  'SEND_TO_SELF',
  'ADDRESS_BOOK_FULL',
  'DATE_RANGE_INVALID',
  'EXCHANGE_ILLEGAL_TRANSITION',
  'EXCHANGE_RATE_EXPIRED',
  'EXCHANGE_RATE_UNAVAILABLE',
  'EXCHANGE_PAIR_UNAVAILABLE',
  'EXCHANGE_AMOUNT_OUT_OF_RANGE',
  'EXCHANGE_ADDRESS_INVALID',
  'EXCHANGE_TOO_MANY_OPEN_ORDERS',
] as const;

export const CLIENT_ERROR_CODES = ['NETWORK_ERROR'] as const;

export type KnownErrorCode = (typeof SERVER_ERROR_CODES)[number] | (typeof CLIENT_ERROR_CODES)[number];

/** Messages for failures without a usable code, chosen by the caller. */
export type FallbackKey =
  | 'SUBMIT_FAILED'
  | 'REGISTRATION_FAILED'
  | 'FILE_UPLOAD_FAILED'
  | 'SERVICE_COMMUNICATION_FAILED';

const FALLBACK_KEYS: ReadonlySet<string> = new Set<FallbackKey>([
  'SUBMIT_FAILED',
  'REGISTRATION_FAILED',
  'FILE_UPLOAD_FAILED',
  'SERVICE_COMMUNICATION_FAILED',
]);

/**
 * The known codes, read from the keys of a translation bundle (every code has a message: errors.test.ts
 * holds it), so the landing page does not ship the list twice. Variants (`_retry`, `_attempts`) and the
 * fallback messages are keys too, not codes.
 */
export function knownCodesOf(bundle: Record<string, unknown>): ReadonlySet<string> {
  return new Set(Object.keys(bundle).filter((key) => !/_(retry|attempts)$/.test(key) && !FALLBACK_KEYS.has(key)));
}
