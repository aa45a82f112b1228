import fc from 'fast-check';

/**
 * Request generation for the API fuzz (api-fuzz.test.ts), from the OpenAPI document: a plausible
 * request per operation (every required field with a value of its type, path and query parameters
 * filled), then one mutation of it. Test support only.
 */
export type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: Schema[];
  oneOf?: Schema[];
  $ref?: string;
  format?: string;
  pattern?: string;
  example?: unknown;
  minimum?: number;
};

export type OpenApiDoc = {
  paths: Record<
    string,
    Record<
      string,
      {
        parameters?: { in: string; name: string; required?: boolean; schema?: Schema; example?: unknown }[];
        requestBody?: { content?: Record<string, { schema?: Schema }> };
        responses?: Record<string, { content?: Record<string, unknown> }>;
      }
    >
  >;
  components?: { schemas?: Record<string, Schema> };
};

export interface Operation {
  method: string;
  path: string;
  params: { name: string; schema: Schema; example?: unknown }[];
  query: { name: string; schema: Schema; required: boolean }[];
  /** The JSON body's schema (refs resolved at the top), or null when the operation takes none. */
  body: Schema | null;
  /** The body is multipart (uploads): sent as JSON it must be refused cleanly. */
  multipart: boolean;
  /** A server-sent event stream: a valid request never ends. */
  streams: boolean;
}

export interface FuzzCase {
  method: string;
  url: string;
  /** The body as sent (JSON text, or not JSON at all); undefined for GET and DELETE. */
  body: string | undefined;
  headers: Record<string, string>;
  mutation: string;
}

export function operationsOf(doc: OpenApiDoc): Operation[] {
  const resolve = (schema: Schema | undefined): Schema =>
    schema?.$ref ? (doc.components?.schemas?.[schema.$ref.replace('#/components/schemas/', '')] ?? {}) : (schema ?? {});
  const deep = (schema: Schema | undefined, depth = 0): Schema => {
    const s = resolve(schema);
    if (depth > 6) return s;
    return {
      ...s,
      ...(s.properties
        ? { properties: Object.fromEntries(Object.entries(s.properties).map(([k, v]) => [k, deep(v, depth + 1)])) }
        : {}),
      ...(s.items ? { items: deep(s.items, depth + 1) } : {}),
      ...(s.anyOf ? { anyOf: s.anyOf.map((x) => deep(x, depth + 1)) } : {}),
    };
  };
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      const content = op.requestBody?.content ?? {};
      const params = op.parameters ?? [];
      operations.push({
        method: method.toUpperCase(),
        path,
        params: params
          .filter((p) => p.in === 'path')
          .map((p) => ({ name: p.name, schema: deep(p.schema), example: p.example })),
        query: params
          .filter((p) => p.in === 'query')
          .map((p) => ({ name: p.name, schema: deep(p.schema), required: p.required === true })),
        body: content['application/json'] ? deep(content['application/json'].schema) : null,
        multipart: content['multipart/form-data'] !== undefined,
        streams: op.responses?.['200']?.content?.['text/event-stream'] !== undefined,
      });
    }
  }
  return operations;
}

const UUID = '7d0e8f1a-2b3c-4d5e-8f60-718293a4b5c6';

/** A value of the schema's type that passes the common formats (ids, amounts, emails, enums). */
export function sample(schema: Schema, name = ''): unknown {
  if (schema.const !== undefined) return schema.const;
  if (schema.enum && schema.enum.length > 0) return schema.enum[0];
  if (schema.example !== undefined) return schema.example;
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants && variants.length > 0)
    return sample(variants.find((v) => v.type !== 'null') ?? variants[0] ?? {}, name);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const key of schema.required ?? []) out[key] = sample(schema.properties?.[key] ?? {}, key);
      return out;
    }
    case 'array':
      return schema.items ? [sample(schema.items, name)] : [];
    case 'integer':
    case 'number':
      return Math.max(schema.minimum ?? 1, 1);
    case 'boolean':
      return true;
    default:
      return sampleString(schema, name);
  }
}

function sampleString(schema: Schema, name: string): string {
  if (schema.format === 'uuid' || /^[\^]?\[0-9a-f\]\{8\}/.test(schema.pattern ?? '') || /id$/i.test(name)) return UUID;
  if (schema.format === 'email' || /email/i.test(name)) return 'fuzz@example.com';
  if (schema.format === 'date-time' || /At$|date/i.test(name)) return '2030-01-02T03:04:05.000Z';
  if (/Minor$|amount/i.test(name) || schema.pattern === '^(0|[1-9][0-9]*)$') return '1000';
  return 'fuzz';
}

/** Values no field of that kind should take, and ordinary ones in odd shapes. */
const ODD_VALUES: [string, unknown][] = [
  ['null', null],
  ['empty string', ''],
  ['huge string', 'x'.repeat(70_000)],
  ['unicode', '𝔘𝔫𝔦 ‮code‬ 🧪 é\u0301 中文'],
  ['negative amount', '-1'],
  ['amount 10^80', `1${'0'.repeat(80)}`],
  ['decimal amount', '1.5'],
  ['exponent amount', '1e6'],
  ['number', 1e308],
  ['negative number', -1],
  ['boolean', false],
  ['array', ['a', 1]],
  ['object', { nested: { deeper: [1, 2, 3] } }],
  ['bad id', 'not-a-uuid'],
  ['path traversal', '../../etc/passwd'],
  ['sql', "' OR 1=1 --"],
];

const ODD_PARAMS = [
  'not-a-uuid',
  '0',
  '-1',
  `1${'0'.repeat(80)}`,
  '..%2F..%2Fetc',
  "'%20OR%201=1",
  'x'.repeat(600),
  '%F0%9F%A7%AA',
];

function fill(op: Operation, odd: { name: string; value: string } | null): string {
  const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (odd?.name === name) return odd.value;
    const param = op.params.find((p) => p.name === name);
    const value = typeof param?.example === 'string' ? param.example : sample(param?.schema ?? {}, name);
    return encodeURIComponent(String(value));
  });
  const query = op.query
    .filter((q) => q.required)
    .map((q) => `${q.name}=${encodeURIComponent(String(sample(q.schema, q.name)))}`);
  return query.length > 0 ? `${path}?${query.join('&')}` : path;
}

/** One operation, one mutation (or none: the plausible request itself). */
export function fuzzCase(operations: Operation[]): fc.Arbitrary<FuzzCase> {
  return fc.constantFrom(...operations).chain((op) => {
    const json = { 'content-type': 'application/json' };
    const base = op.body ? sample(op.body) : undefined;
    const plain = (mutation: string, body: unknown, url = fill(op, null), headers = json): FuzzCase => ({
      method: op.method,
      url,
      body:
        op.method === 'GET' || op.method === 'DELETE'
          ? undefined
          : mutation === 'not JSON'
            ? String(body)
            : JSON.stringify(body),
      headers,
      mutation,
    });
    const fields =
      base && typeof base === 'object' && !Array.isArray(base) ? Object.keys(op.body?.properties ?? {}) : [];
    const choices: fc.Arbitrary<FuzzCase>[] = [fc.constant(plain('as generated', base ?? {}))];
    if (fields.length > 0) {
      choices.push(
        fc
          .tuple(fc.constantFrom(...fields), fc.constantFrom(...ODD_VALUES))
          .map(([field, [kind, value]]) => plain(`${field}: ${kind}`, { ...(base as object), [field]: value })),
        fc.constantFrom(...fields).map((field) => {
          const { [field]: _dropped, ...rest } = base as Record<string, unknown>;
          return plain(`without ${field}`, rest);
        }),
        fc.constant(plain('extra field', { ...(base as object), unexpected: 'x' })),
      );
    }
    if (op.body || op.multipart) {
      choices.push(
        fc.constantFrom(...ODD_VALUES).map(([kind, value]) => plain(`body: ${kind}`, value)),
        fc.constant(plain('not JSON', '{"a":', fill(op, null), json)),
      );
    }
    if (op.params.length > 0) {
      choices.push(
        fc
          .tuple(fc.constantFrom(...op.params.map((p) => p.name)), fc.constantFrom(...ODD_PARAMS))
          .map(([name, value]) => plain(`path ${name}: ${value.slice(0, 20)}`, base ?? {}, fill(op, { name, value }))),
      );
    }
    if (op.query.length > 0) {
      choices.push(
        fc
          .tuple(fc.constantFrom(...op.query.map((q) => q.name)), fc.constantFrom(...ODD_PARAMS))
          .map(([name, value]) => {
            const url = fill(op, null);
            return plain(
              `query ${name}: ${value.slice(0, 20)}`,
              base ?? {},
              `${url}${url.includes('?') ? '&' : '?'}${name}=${value}`,
            );
          }),
      );
    }
    return fc.oneof(...choices);
  });
}
