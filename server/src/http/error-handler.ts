import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, type ErrorDetail } from '../errors/app-error.ts';
import { type ErrorCode, statusOf } from '../errors/codes.ts';
import type { ErrorBody } from '../errors/schema.ts';

interface SchemaError {
  instancePath?: string;
  keyword?: string;
  message?: string;
  params?: Record<string, unknown>;
  schemaPath?: string;
}

/** `/quickBuy/fiatAmount` -> `quickBuy.fiatAmount` */
function fieldOf(pointer: string | undefined, property?: string): string {
  const parts = (pointer ?? '')
    .split('/')
    .filter(Boolean)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (property !== undefined) parts.push(property);
  return parts.join('.');
}

/** JSON Schema keyword -> the `rule` a field broke (the UI picks its message by rule). */
const ruleOfKeyword: Record<string, string> = {
  required: 'required',
  safeText: 'text',
  additionalProperties: 'unknown',
  type: 'type',
  enum: 'enum',
  const: 'enum',
  pattern: 'format',
  format: 'format',
  minLength: 'length',
  maxLength: 'length',
  minItems: 'length',
  maxItems: 'length',
  minimum: 'range',
  maximum: 'range',
  exclusiveMinimum: 'range',
  exclusiveMaximum: 'range',
};

/** Schema validation errors (TypeBox or Ajv shape) -> `details`. */
export function validationDetails(errors: readonly SchemaError[]): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  for (const error of errors) {
    const params = error.params ?? {};
    const rule = ruleOfKeyword[error.keyword ?? ''] ?? 'invalid';
    if (error.keyword === 'required' && Array.isArray(params.requiredProperties)) {
      for (const p of params.requiredProperties) {
        details.push({ field: fieldOf(error.instancePath, String(p)), message: 'is required', rule });
      }
    } else if (error.keyword === 'required' && typeof params.missingProperty === 'string') {
      details.push({ field: fieldOf(error.instancePath, params.missingProperty), message: 'is required', rule });
    } else if (error.keyword === 'additionalProperties' && Array.isArray(params.additionalProperties)) {
      for (const p of params.additionalProperties) {
        details.push({ field: fieldOf(error.instancePath, String(p)), message: 'is not allowed', rule });
      }
    } else if (error.keyword === 'boolean' && error.schemaPath?.endsWith('additionalProperties')) {
      // duplicate of the additionalProperties error above
    } else {
      details.push({ field: fieldOf(error.instancePath), message: error.message ?? 'is invalid', rule });
    }
  }
  return details;
}

// node-postgres / PostgreSQL errors meaning "the database cannot serve this right now" (503, retry).
const unavailableCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'ENOTFOUND',
  '57P01',
  '57P02',
  '57P03',
  '53300',
  // lock_not_available: a bounded lock wait (SET LOCAL lock_timeout) ran out; busy, retry shortly.
  '55P03',
]);

function isDatabaseUnavailable(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && unavailableCodes.has(code)) return true;
  const message = (error as { message?: unknown }).message;
  return (
    typeof message === 'string' && /^(Connection terminated|timeout exceeded when trying to connect)/.test(message)
  );
}

/** Maps a framework/plugin HTTP status to the closest code of the closed set. */
function codeForStatus(status: number): ErrorCode {
  switch (status) {
    case 401:
      return 'UNAUTHENTICATED';
    case 403:
      return 'FORBIDDEN';
    case 404:
      return 'NOT_FOUND';
    case 405:
      return 'METHOD_NOT_ALLOWED';
    case 409:
      return 'CONFLICT';
    case 413:
      return 'PAYLOAD_TOO_LARGE';
    case 415:
      return 'UNSUPPORTED_MEDIA_TYPE';
    case 429:
      return 'RATE_LIMITED';
    case 503:
      return 'SERVICE_UNAVAILABLE';
    default:
      return status >= 400 && status < 500 ? 'VALIDATION_FAILED' : 'INTERNAL';
  }
}

export interface MappedError {
  status: number;
  body: ErrorBody;
  /** Unexpected: log at error level with the stack. */
  unexpected: boolean;
}

/** Any thrown value -> status and the one wire shape `{ code, message, details? }`. */
export function toErrorResponse(error: unknown): MappedError {
  if (error instanceof AppError) {
    const body: ErrorBody = { code: error.code, message: error.message };
    if (error.details) body.details = error.details;
    return { status: statusOf(error.code), body, unexpected: false };
  }
  const fastifyError = error as Partial<FastifyError>;
  if (Array.isArray(fastifyError.validation)) {
    const details = validationDetails(fastifyError.validation as SchemaError[]);
    const part = fastifyError.validationContext ?? 'request';
    const summary = details.map((d) => `${d.field || part} ${d.message}`).join('; ');
    return {
      status: statusOf('VALIDATION_FAILED'),
      body: { code: 'VALIDATION_FAILED', message: `Invalid ${part}: ${summary}`, details },
      unexpected: false,
    };
  }
  if (isDatabaseUnavailable(error)) {
    return {
      status: statusOf('SERVICE_UNAVAILABLE'),
      body: { code: 'SERVICE_UNAVAILABLE', message: 'Database unavailable' },
      unexpected: true,
    };
  }
  const status = fastifyError.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    const code = codeForStatus(status);
    return { status: statusOf(code), body: { code, message: fastifyError.message ?? code }, unexpected: false };
  }
  if (status === 503) {
    return { status: 503, body: { code: 'SERVICE_UNAVAILABLE', message: 'Service unavailable' }, unexpected: false };
  }
  // Never leak internals: details go to the log (with the request id), not the client.
  return { status: 500, body: { code: 'INTERNAL', message: 'Internal server error' }, unexpected: true };
}

/** A throttled answer's wait, from its details (every 429 of ours says it); the rate limiter sets its own. */
function retryAfterOf(body: ErrorBody): number | null {
  const details = body.details as { retryAfterSeconds?: unknown } | undefined;
  const seconds = details && !Array.isArray(details) ? details.retryAfterSeconds : undefined;
  return typeof seconds === 'number' && Number.isFinite(seconds) && seconds > 0 ? Math.ceil(seconds) : null;
}

export function errorHandler(error: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const { status, body, unexpected } = toErrorResponse(error);
  if (unexpected) request.log.error({ err: error }, 'request failed');
  else request.log.info({ code: body.code, status }, body.message);
  // 429 (throttled) and 503 (busy, e.g. LEDGER_BUSY) that know their wait say it in Retry-After too.
  const retryAfter = status === 429 || status === 503 ? retryAfterOf(body) : null;
  if (retryAfter !== null && !reply.hasHeader('retry-after')) reply.header('retry-after', String(retryAfter));
  return reply.code(status).send(body);
}

export function apiNotFound(request: FastifyRequest): ErrorBody {
  return { code: 'NOT_FOUND', message: `Route ${request.method} ${request.url.split('?')[0]} not found` };
}

export function isApiPath(url: string): boolean {
  return /^\/api(\/|\?|$)/.test(url);
}

export interface NotFoundOptions {
  /** Serves the SPA's index.html when appropriate; returns false when it did not. */
  spaFallback?: (request: FastifyRequest, reply: FastifyReply) => Promise<boolean>;
  /** The methods a concrete /api path has (route-methods.ts): another method answers 405 with `Allow`. */
  methodsOf?: (path: string) => string[];
}

/** 404s: JSON error shape under /api, the SPA for page navigations, plain text otherwise. */
export function registerErrorHandling(app: FastifyInstance, options: NotFoundOptions = {}): void {
  app.setErrorHandler(errorHandler);
  app.setNotFoundHandler(async (request, reply) => {
    if (isApiPath(request.url)) {
      const path = request.url.split('?')[0] ?? '';
      const allowed = options.methodsOf?.(path) ?? [];
      if (allowed.length > 0 && !allowed.includes(request.method)) {
        return reply
          .code(405)
          .header('allow', allowed.join(', '))
          .send({ code: 'METHOD_NOT_ALLOWED', message: `${request.method} is not allowed on ${path}` });
      }
      return reply.code(404).send(apiNotFound(request));
    }
    if (options.spaFallback && (await options.spaFallback(request, reply))) return reply;
    return reply.code(404).type('text/plain; charset=utf-8').send('Not Found');
  });
}
