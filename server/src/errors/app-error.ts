import { type ErrorCode, statusOf } from './codes.ts';

export interface ErrorDetail {
  /** Dotted path of the offending field, e.g. `quickBuy.fiatAmount`; empty for the whole input. */
  field: string;
  message: string;
  /** The rule broken, e.g. `required`, `length`, `charset`, `format`. */
  rule?: string;
}

/** Facts about a throttled or attempt-limited operation. */
export interface ErrorFacts {
  retryAfterSeconds?: number;
  attemptsLeft?: number;
  /** ISO time a hold ends, for the message to name it. */
  until?: string;
  /** The bound that was reached (e.g. unpaid orders), for the message to name it. */
  limit?: number;
}

/**
 * Base class of every error the API reports on purpose. Throw it (or a subclass)
 * from services and routes; the error handler turns it into
 * `{ code, message, details? }` with the status of its code.
 */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly details: ErrorDetail[] | ErrorFacts | undefined;

  constructor(code: ErrorCode, message: string, options?: { details?: ErrorDetail[] | ErrorFacts; cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.details = options?.details;
  }

  get statusCode(): number {
    return statusOf(this.code);
  }
}

export class ValidationError extends AppError {
  constructor(message: string, details?: ErrorDetail[]) {
    super('VALIDATION_FAILED', message, details ? { details } : undefined);
    this.name = 'ValidationError';
  }
}

export class UnauthenticatedError extends AppError {
  constructor(message = 'Authentication required') {
    super('UNAUTHENTICATED', message);
    this.name = 'UnauthenticatedError';
  }
}

export class ForbiddenError extends AppError {
  constructor(message = 'Not allowed') {
    super('FORBIDDEN', message);
    this.name = 'ForbiddenError';
  }
}

export class NotFoundError extends AppError {
  constructor(message = 'Not found') {
    super('NOT_FOUND', message);
    this.name = 'NotFoundError';
  }
}

export class ConflictError extends AppError {
  constructor(message: string) {
    super('CONFLICT', message);
    this.name = 'ConflictError';
  }
}

export class ServiceUnavailableError extends AppError {
  constructor(message = 'Service unavailable', cause?: unknown) {
    super('SERVICE_UNAVAILABLE', message, cause === undefined ? undefined : { cause });
    this.name = 'ServiceUnavailableError';
  }
}
