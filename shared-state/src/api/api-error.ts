/** Codes the client produces itself, beside the server's ErrorCode union. */
export type ClientErrorCode = 'NETWORK_ERROR';

/**
 * Every failed API call surfaces as an ApiError: the server's `{ code,
 * message, details }` plus the HTTP status (0 when the request never got an
 * answer). Screens translate by `code` (see @cw/shared-state/errors).
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly code: string;
  readonly details: unknown;
  readonly status: number;
  /** The answer's Retry-After header, in seconds, when it had one. */
  readonly retryAfterHeader: number | undefined;

  constructor(init: { code: string; message: string; details?: unknown; status: number; retryAfter?: number }) {
    super(init.message);
    this.code = init.code;
    this.details = init.details;
    this.status = init.status;
    this.retryAfterHeader = init.retryAfter;
  }
}

export function isApiError(value: unknown): value is ApiError {
  return value instanceof ApiError;
}

/** The wait of a throttled or busy answer: `details.retryAfterSeconds`, else its Retry-After header. */
export function retryAfterSeconds(error: unknown): number | undefined {
  if (!isApiError(error)) return undefined;
  const details = error.details as { retryAfterSeconds?: unknown } | null | undefined;
  const value = details?.retryAfterSeconds;
  return typeof value === 'number' && Number.isFinite(value) ? value : error.retryAfterHeader;
}

/** A Retry-After header value (delay-seconds or an HTTP date) -> whole seconds from `now`. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

/** `details` of VALIDATION_FAILED: the fields the server rejected. */
export function fieldErrors(error: unknown): { field: string; rule: string }[] {
  if (!isApiError(error) || !Array.isArray(error.details)) return [];
  return error.details.filter(
    (item): item is { field: string; rule: string } =>
      typeof item === 'object' && item !== null && typeof item.field === 'string' && typeof item.rule === 'string',
  );
}
