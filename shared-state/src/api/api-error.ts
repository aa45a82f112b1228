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

  constructor(init: { code: string; message: string; details?: unknown; status: number }) {
    super(init.message);
    this.code = init.code;
    this.details = init.details;
    this.status = init.status;
  }
}

export function isApiError(value: unknown): value is ApiError {
  return value instanceof ApiError;
}

/** `details.retryAfterSeconds` of throttling errors, when present. */
export function retryAfterSeconds(error: unknown): number | undefined {
  if (!isApiError(error)) return undefined;
  const details = error.details as { retryAfterSeconds?: unknown } | null | undefined;
  const value = details?.retryAfterSeconds;
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** `details` of VALIDATION_FAILED: the fields the server rejected. */
export function fieldErrors(error: unknown): { field: string; rule: string }[] {
  if (!isApiError(error) || !Array.isArray(error.details)) return [];
  return error.details.filter(
    (item): item is { field: string; rule: string } =>
      typeof item === 'object' && item !== null && typeof item.field === 'string' && typeof item.rule === 'string',
  );
}
