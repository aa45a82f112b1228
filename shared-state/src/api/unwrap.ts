import { ApiError, parseRetryAfter } from './api-error.ts';

interface FetchResult {
  data?: unknown;
  error?: unknown;
  response: Response;
}

type Data<R extends FetchResult> = [Exclude<R['data'], undefined>] extends [never]
  ? undefined
  : Exclude<R['data'], undefined>;

function isErrorBody(value: unknown): value is { code: string; message?: unknown; details?: unknown } {
  return typeof value === 'object' && value !== null && typeof (value as { code?: unknown }).code === 'string';
}

let beforeError: () => Promise<unknown> = async () => undefined;

/**
 * Something to wait for before a failure is reported: the error messages (@cw/shared-state/errors
 * loads them lazily and registers itself here), so whatever shows the error finds them loaded.
 */
export function setErrorTextsLoader(load: () => Promise<unknown>): void {
  beforeError = load;
}

async function failWith(error: ApiError): Promise<never> {
  await beforeError().catch(() => undefined);
  throw error;
}

/** Gateway statuses mean the API itself could not be reached through the proxy. */
const UNAVAILABLE_STATUSES = new Set([502, 503, 504]);

/**
 * Resolve an openapi-fetch call to its data, or throw an ApiError:
 * the server's `{ code, message, details }`, SERVICE_UNAVAILABLE for a
 * gateway failure without a JSON body, NETWORK_ERROR when no answer came.
 */
export async function unwrap<R extends FetchResult>(request: Promise<R>): Promise<Data<R>> {
  let result: R;
  try {
    result = await request;
  } catch (cause) {
    if (cause instanceof DOMException && cause.name === 'AbortError') throw cause;
    return failWith(
      new ApiError({
        code: 'NETWORK_ERROR',
        message: cause instanceof Error ? cause.message : 'network error',
        status: 0,
      }),
    );
  }
  const { response } = result;
  if (response.ok) return result.data as Data<R>;
  const body = result.error;
  const retryAfter = parseRetryAfter(response.headers?.get('retry-after') ?? null);
  if (isErrorBody(body)) {
    return failWith(
      new ApiError({
        code: body.code,
        message: typeof body.message === 'string' ? body.message : body.code,
        details: body.details,
        status: response.status,
        ...(retryAfter === undefined ? {} : { retryAfter }),
      }),
    );
  }
  // No body of ours: a proxy's answer (a gateway error, or a load balancer's own rate limit).
  const code =
    response.status === 429
      ? 'RATE_LIMITED'
      : UNAVAILABLE_STATUSES.has(response.status)
        ? 'SERVICE_UNAVAILABLE'
        : 'INTERNAL';
  return failWith(
    new ApiError({
      code,
      message: `HTTP ${response.status}`,
      status: response.status,
      ...(retryAfter === undefined ? {} : { retryAfter }),
    }),
  );
}
