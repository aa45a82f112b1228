import { type Static, Type } from 'typebox';
import { ErrorCode } from './codes.ts';

export const ErrorDetail = Type.Object(
  {
    field: Type.String({ description: 'Dotted path of the offending field; empty for the whole input.' }),
    message: Type.String(),
    rule: Type.Optional(
      Type.String({ description: 'The rule broken, e.g. `required`, `length`, `charset`, `format`.' }),
    ),
  },
  { additionalProperties: false },
);

/** `details` of throttled, attempt-limited and bounded errors (LOGIN_THROTTLED, WRONG_FUND_PASSWORD, ...). */
export const ErrorFacts = Type.Object(
  {
    retryAfterSeconds: Type.Optional(Type.Integer({ minimum: 0 })),
    attemptsLeft: Type.Optional(Type.Integer({ minimum: 0 })),
    until: Type.Optional(
      Type.String({ format: 'date-time', description: 'When a hold ends (ADDRESS_ALLOWLIST_HOLD)' }),
    ),
    limit: Type.Optional(
      Type.Integer({ minimum: 0, description: 'The bound that was reached (EXCHANGE_TOO_MANY_OPEN_ORDERS)' }),
    ),
  },
  { additionalProperties: false },
);

/** The one error shape on the wire, for every failure. Registered with `app.addSchema`. */
export const ErrorResponse = Type.Object(
  {
    code: ErrorCode,
    message: Type.String({ description: 'English developer text; not for display.' }),
    details: Type.Optional(Type.Union([Type.Array(ErrorDetail), ErrorFacts])),
  },
  { $id: 'ErrorResponse', additionalProperties: false },
);

export type ErrorBody = Static<typeof ErrorResponse>;

/** A `$ref` to the registered ErrorResponse schema, typed as the error body. */
export const errorRef = Type.Unsafe<ErrorBody>(Type.Ref('ErrorResponse'));

type ErrorResponses<S extends number> = { [K in S]: typeof errorRef };

/**
 * Response schema entries for the given error statuses, for a route's `schema.response`:
 * `response: { 200: Thing, ...errorResponses(400, 401) }`.
 * 429 and 500 are added to every route, as any route can fail that way.
 */
export function errorResponses<S extends number>(...statuses: S[]): ErrorResponses<S | 429 | 500> {
  const out: Partial<Record<number, typeof errorRef>> = {};
  for (const status of [...statuses, 429, 500]) out[status] = errorRef;
  return out as ErrorResponses<S | 429 | 500>;
}
