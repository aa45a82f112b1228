import type { FastifySchemaCompiler, FastifySchemaValidationError } from 'fastify';

/**
 * Text no field of the API accepts: NUL and the other C0 controls except TAB, LF and CR, DEL and the
 * C1 controls, and UTF-16 surrogates without their pair. PostgreSQL refuses NUL and lone surrogates
 * ("invalid byte sequence"), a terminal or a log viewer interprets the controls, and none of them is
 * ever typed by a user; LF and TAB stay allowed for multi-line text (e-mail bodies, remarks).
 */
const UNSAFE_TEXT =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is what this pattern is for
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Bodies are at most BODY_LIMIT bytes; this bounds the walk on a pathological nesting. */
const MAX_DEPTH = 32;

export function isUnsafeText(text: string): boolean {
  return UNSAFE_TEXT.test(text);
}

const pointerPart = (key: string) => key.replaceAll('~', '~0').replaceAll('/', '~1');

/** JSON pointer of the first string (value or key) holding unsafe text, or null. */
export function findUnsafeText(value: unknown, pointer = '', depth = 0): string | null {
  if (typeof value === 'string') return isUnsafeText(value) ? pointer : null;
  if (value === null || typeof value !== 'object' || depth >= MAX_DEPTH) return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i += 1) {
      const found = findUnsafeText(value[i], `${pointer}/${i}`, depth + 1);
      if (found !== null) return found;
    }
    return null;
  }
  for (const [key, item] of Object.entries(value)) {
    const at = `${pointer}/${pointerPart(key)}`;
    if (isUnsafeText(key)) return at;
    const found = findUnsafeText(item, at, depth + 1);
    if (found !== null) return found;
  }
  return null;
}

/**
 * Every route's validator, wrapped once for the whole API: body, query and path parameters are
 * refused with the usual VALIDATION_FAILED (400, the field named) when any string in them holds
 * unsafe text, or a query or path integer is anything but digits, before the route's own schema
 * (and its type conversion) is even consulted.
 */
export function withStrictInput<T>(compiler: FastifySchemaCompiler<T>): FastifySchemaCompiler<T> {
  return (route) => {
    const validate = compiler(route);
    const integers = route.httpPart === 'querystring' || route.httpPart === 'params' ? integerFields(route.schema) : [];
    return (data) => {
      if (route.httpPart === 'headers') return validate(data);
      const pointer = findUnsafeText(data);
      if (pointer !== null) return refuse(pointer, 'safeText', 'must not contain control characters');
      const loose = looseInteger(data, integers);
      if (loose !== null) return refuse(`/${loose}`, 'type', 'must be a whole number');
      return validate(data);
    };
  };
}

/** A validation failure in the shape the route validators give (the error handler names the field). */
function refuse(instancePath: string, keyword: string, message: string): { error: FastifySchemaValidationError[] } {
  return { error: [{ instancePath, keyword, message, schemaPath: '', params: {} }] };
}

/** Names of the integer properties of a query or path schema. */
function integerFields(schema: unknown): string[] {
  const properties = (schema as { properties?: Record<string, { type?: unknown }> } | null)?.properties ?? {};
  return Object.entries(properties)
    .filter(([, property]) => property.type === 'integer')
    .map(([name]) => name);
}

/**
 * A query or path integer is digits, nothing else: the schema's own conversion would read `true` as 1
 * and `1.5` as 1.5 (then 1), so `limit=true` must be refused before it. Returns the bad field.
 */
function looseInteger(data: unknown, fields: readonly string[]): string | null {
  if (fields.length === 0 || data === null || typeof data !== 'object') return null;
  for (const field of fields) {
    const value = (data as Record<string, unknown>)[field];
    if (typeof value === 'string' && !/^-?\d{1,15}$/.test(value)) return field;
  }
  return null;
}
