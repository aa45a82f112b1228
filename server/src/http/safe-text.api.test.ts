import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nextIp } from '../modules/auth/test-helpers.ts';
import { operatorCookie } from '../modules/operators/test-helpers.ts';
import { newUser, useWalletHarness, type WalletUser } from '../modules/withdrawals/test-helpers.ts';
import { findUnsafeText, isUnsafeText } from './safe-text.ts';

describe('unsafe text', () => {
  it('is NUL, other controls and unpaired surrogates; TAB, LF, CR and real characters pass', () => {
    for (const bad of ['a\u0000b', '\u0007', '\u001b[31m', '\u007f', '\u0085', '\ud800', 'x\udc00', '\udfff\ud800'])
      expect(isUnsafeText(bad), JSON.stringify(bad)).toBe(true);
    for (const good of ['plain', 'two\nlines\r\n\ttabbed', '中文', 'emoji 😀', 'ñandú', ''])
      expect(isUnsafeText(good), good).toBe(false);
  });

  it('names the first unsafe string, also in keys and nested arrays', () => {
    expect(findUnsafeText({ a: 'ok', b: ['ok', { c: 'x\u0000' }] })).toBe('/b/1/c');
    expect(findUnsafeText({ 'k\u0000': 1 })).toBe('/k\u0000');
    expect(findUnsafeText({ 'a/b': '\ud800' })).toBe('/a~1b');
    expect(findUnsafeText({ a: 'fine', n: 1, z: null })).toBeNull();
  });
});

interface Operation {
  method: string;
  path: string;
  /** Top-level string fields of the JSON body, and string query and path parameters. */
  body: string[];
  query: string[];
  params: string[];
  /** A valid value of each path parameter (its example; a uuid otherwise), for the ones not probed. */
  fill: Record<string, string>;
}

type Schema = { type?: string | string[]; properties?: Record<string, Schema>; $ref?: string; anyOf?: Schema[] };
type Doc = {
  paths: Record<
    string,
    Record<
      string,
      {
        parameters?: { in: string; name: string; schema?: Schema; example?: unknown }[];
        requestBody?: { content?: Record<string, { schema?: Schema }> };
      }
    >
  >;
  components?: { schemas?: Record<string, Schema> };
};

const isString = (schema: Schema | undefined): boolean =>
  schema !== undefined &&
  (schema.type === 'string' ||
    (Array.isArray(schema.type) && schema.type.includes('string')) ||
    (schema.anyOf ?? []).some(isString));

function operationsOf(doc: Doc): Operation[] {
  const resolve = (schema: Schema | undefined) =>
    schema?.$ref ? doc.components?.schemas?.[schema.$ref.replace('#/components/schemas/', '')] : schema;
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      const body = resolve(op.requestBody?.content?.['application/json']?.schema);
      const stringParams = (where: string) =>
        (op.parameters ?? []).filter((p) => p.in === where && isString(p.schema)).map((p) => p.name);
      operations.push({
        method: method.toUpperCase(),
        path,
        body: Object.entries(body?.properties ?? {})
          .filter(([, schema]) => isString(resolve(schema)))
          .map(([name]) => name),
        query: stringParams('query'),
        params: stringParams('path'),
        fill: Object.fromEntries(
          (op.parameters ?? [])
            .filter((p) => p.in === 'path' && typeof p.example === 'string')
            .map((p) => [p.name, p.example as string]),
        ),
      });
    }
  }
  return operations;
}

const CONTROLS = ['\u0000', '\u0001', '\u001b', '\u007f', '\u009b'];
const LONE_SURROGATES = ['\ud800', '\udbff', '\udc00'];

/**
 * A string holding at least one character no field accepts, somewhere in ordinary text. A URL carries
 * bytes, not UTF-16: a lone surrogate cannot be put in one (it arrives as U+FFFD), so query and path
 * values get control characters only.
 */
const unsafeString = (inUrl: boolean) =>
  fc
    .tuple(
      fc.string({ maxLength: 8 }),
      fc.constantFrom(...(inUrl ? CONTROLS : [...CONTROLS, ...LONE_SURROGATES])),
      fc.string({ maxLength: 8 }),
    )
    .map(([before, bad, after]) => `${before}${bad}${after.replace(/^[\udc00-\udfff]/, '')}`);

const h = useWalletHarness();

describe('every string field of every operation', () => {
  it('answers a 400 VALIDATION_FAILED naming the field to unsafe text, never a 5xx', async () => {
    const doc = h.app.swagger() as unknown as Doc;
    const operations = operationsOf(doc);
    const targets = operations.flatMap((op) => [
      ...op.body.map((field) => ({ op, where: 'body' as const, field })),
      ...op.query.map((field) => ({ op, where: 'query' as const, field })),
      ...op.params.map((field) => ({ op, where: 'params' as const, field })),
    ]);
    // Every operation that takes text is covered (the login identifier, the address book, sends...).
    expect(targets.length).toBeGreaterThan(40);
    const user: WalletUser = await newUser(h);
    // Operator routes (/api/ops) are asked with an operator session too, so their input is reached.
    const cookie = `${user.cookie}; ${await operatorCookie(h.app, { db: h.db, now: h.clock.now }, 'text_probe', ['support', 'compliance', 'admin'])}`;
    await fc.assert(
      fc.asyncProperty(
        fc
          .constantFrom(...targets)
          .chain((target) => unsafeString(target.where !== 'body').map((bad) => ({ ...target, bad }))),
        async ({ op, where, field, bad }) => {
          let url = op.path.replace(/\{(\w+)\}/g, (_, name: string) =>
            name === field && where === 'params'
              ? encodeURIComponent(bad)
              : (op.fill[name] ?? '00000000-0000-4000-8000-000000000000'),
          );
          if (where === 'query') url += `?${new URLSearchParams({ [field]: bad })}`;
          const response = await h.app.inject({
            method: op.method as 'GET',
            url,
            remoteAddress: nextIp(),
            headers: { cookie },
            ...(where === 'body' ? { payload: { [field]: bad } } : op.method === 'GET' ? {} : { payload: {} }),
          });
          expect(response.statusCode, `${op.method} ${url} ${where}.${field}: ${response.body}`).toBeLessThan(500);
          if (where !== 'params' || response.statusCode === 400) {
            const label = `${op.method} ${op.path} ${where}.${field}: ${response.body}`;
            expect(response.statusCode, label).toBe(400);
            expect(response.json().code, label).toBe('VALIDATION_FAILED');
            expect(response.json().details, label).toEqual([expect.objectContaining({ rule: 'text' })]);
          }
        },
      ),
      { numRuns: Math.max(200, targets.length * 3) },
    );
  }, 120_000);
});

describe('query integers', () => {
  it('are digits only: limit=true and limit=1.5 are refused on every list, limit=20 is fine', async () => {
    const user = await newUser(h);
    for (const url of ['/api/wallet/history', '/api/exchange/orders', '/api/convert/history']) {
      for (const limit of ['true', '1.5', '1e1', ' 2', '0x10']) {
        const res = await h.app.inject({
          method: 'GET',
          url: `${url}?limit=${encodeURIComponent(limit)}`,
          headers: { cookie: user.cookie },
        });
        expect([url, limit, res.statusCode, res.json().details?.[0]]).toEqual([
          url,
          limit,
          400,
          { field: 'limit', message: 'must be a whole number', rule: 'type' },
        ]);
      }
      const fine = await h.app.inject({ method: 'GET', url: `${url}?limit=20`, headers: { cookie: user.cookie } });
      expect([url, fine.statusCode]).toEqual([url, 200]);
    }
  });
});
