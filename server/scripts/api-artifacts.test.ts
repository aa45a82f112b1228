import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { errorStatus } from '../src/errors/codes.ts';
import { buildOpenApiDocument, generateApiArtifacts, openApiJsonFile, schemaDtsFile } from './api-artifacts.ts';

describe('OpenAPI document', () => {
  it('describes the routes, the shared schemas and every error code', async () => {
    const doc = await buildOpenApiDocument();
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths ?? {})).toEqual(
      expect.arrayContaining(['/api/health', '/api/ready', '/api/me/settings']),
    );
    const errorRef = { content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorResponse' } } } };
    const settingsRef = { content: { 'application/json': { schema: { $ref: '#/components/schemas/UserSettings' } } } };
    expect(doc).toMatchObject({
      paths: {
        '/api/me/settings': {
          get: { responses: { 200: settingsRef, 401: errorRef } },
          put: { requestBody: { content: { 'application/json': {} } }, responses: { 200: settingsRef, 400: errorRef } },
        },
      },
      components: {
        schemas: {
          ErrorResponse: { properties: { code: { enum: Object.keys(errorStatus) } } },
          UserSettings: { required: ['language', 'priceColor', 'fiatCurrency', 'quickBuy', 'saved'] },
        },
      },
    });
    // Internal routes stay out of the public document.
    expect(Object.keys(doc.paths ?? {}).filter((p) => !p.startsWith('/api/'))).toEqual([]);
  });

  it('the committed openapi.json and schema.d.ts are current (else run `npm run gen:api -w server`)', async () => {
    const { json, dts } = await generateApiArtifacts();
    const read = (file: string) => readFile(file, 'utf8').catch(() => '<missing>');
    expect(await read(openApiJsonFile), 'openapi.json is out of date: run `npm run gen:api -w server`').toBe(json);
    expect(await read(schemaDtsFile), 'schema.d.ts is out of date: run `npm run gen:api -w server`').toBe(dts);
  });
});

describe('operations as outside tools read them', () => {
  it('every operation has a unique operationId and declares its security', async () => {
    const doc = await buildOpenApiDocument();
    const operations = Object.entries(doc.paths ?? {}).flatMap(([url, item]) =>
      Object.entries(item ?? {}).map(([method, op]) => ({ url, method, op: op as Record<string, unknown> })),
    );
    const ids = operations.map(({ op }) => op.operationId);
    expect(ids.every((id) => typeof id === 'string')).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    const find = (method: string, url: string) => operations.find((o) => o.method === method && o.url === url)?.op;
    const signedIn = [{ sessionCookie: [] }, { secureSessionCookie: [] }];
    expect(find('get', '/api/wallet/withdrawals/{id}')).toMatchObject({
      operationId: 'getWalletWithdrawalsById',
      security: signedIn,
    });
    expect(find('post', '/api/auth/login')).toMatchObject({ operationId: 'postAuthLogin', security: [] });
    expect(find('get', '/api/session')?.security).toEqual([]);
    expect(doc.servers).toEqual([expect.objectContaining({ url: '/' })]);
    // Operator routes name the operator cookie with the roles that may call them (issue 32), never a
    // user session; the operator sign-in is public.
    // (ops_sid over HTTP in development, __Host-ops_sid over HTTPS: issue 38 item 7.)
    expect(find('post', '/api/ops/announcements')?.security).toEqual([
      { operatorCookie: ['support'] },
      { secureOperatorCookie: ['support'] },
    ]);
    expect(find('get', '/api/ops/audit/events')?.security).toEqual([
      { operatorCookie: ['admin', 'compliance'] },
      { secureOperatorCookie: ['admin', 'compliance'] },
    ]);
    expect(find('post', '/api/ops/session')?.security).toEqual([]);
    expect(Object.keys(doc.components?.securitySchemes ?? {})).toEqual([
      'sessionCookie',
      'secureSessionCookie',
      'operatorCookie',
      'secureOperatorCookie',
    ]);
  });
});

describe('error answers in the document', () => {
  it('every operation that takes input lists its 400 (any field can be refused), and every one its 429 and 500', async () => {
    const doc = await buildOpenApiDocument();
    const missing: string[] = [];
    for (const [url, item] of Object.entries(doc.paths ?? {})) {
      for (const [method, raw] of Object.entries(item ?? {})) {
        const op = raw as { requestBody?: unknown; parameters?: unknown[]; responses?: Record<string, unknown> };
        const takesInput = op.requestBody !== undefined || (op.parameters ?? []).length > 0;
        const statuses = Object.keys(op.responses ?? {});
        for (const status of [...(takesInput ? ['400'] : []), '429', '500'])
          if (!statuses.includes(status)) missing.push(`${method.toUpperCase()} ${url} ${status}`);
      }
    }
    expect(missing).toEqual([]);
  });
});
