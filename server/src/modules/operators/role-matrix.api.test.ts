import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { registerUser, useAuthHarness } from '../auth/test-helpers.ts';
import { declaredRoles, OPERATOR_ROLES, type OperatorRole } from './roles.ts';
import { operatorCookie } from './test-helpers.ts';

/**
 * Issue 32: every /api/ops operation in the OpenAPI document declares its roles (the operator cookie
 * schemes' role lists), and the one guard enforces exactly that: each operation answers 403 to an
 * operator holding only another role, 401 to a user's session and to no session, and lets its own
 * roles past the guard. Generated from the document, so a new route is covered when it is added.
 */
const h = useAuthHarness();
const PUBLIC = new Set([
  'POST /api/ops/passkey/options',
  'POST /api/ops/passkey/session',
  'POST /api/ops/session',
  'GET /api/ops/session',
  'POST /api/ops/enrolment/start',
  'POST /api/ops/enrolment/finish',
]);

interface Operation {
  method: string;
  path: string;
  roles: OperatorRole[];
  stream: boolean;
  security: unknown;
}

let operations: Operation[] = [];
const cookies = {} as Record<OperatorRole, string>;
let userCookie = '';

beforeAll(async () => {
  const doc = (await h.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as {
    paths: Record<string, Record<string, { security?: unknown; responses?: Record<string, { content?: object }> }>>;
  };
  operations = Object.entries(doc.paths)
    .filter(([path]) => path.startsWith('/api/ops/') || path === '/api/ops')
    .flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => ({
        method: method.toUpperCase(),
        path,
        roles: declaredRoles(op.security),
        stream: JSON.stringify(op.responses?.['200']?.content ?? {}).includes('text/event-stream'),
        security: op.security,
      })),
    );
  for (const role of OPERATOR_ROLES)
    cookies[role] = await operatorCookie(h.app, { db: h.db, now: h.clock.now }, `matrix_${role}`, [role]);
  userCookie = (await registerUser(h)).cookie;
});

const call = (op: Operation, cookie?: string) =>
  h.app.inject({
    method: op.method as 'GET',
    url: op.path.replace(/\{[^}]+\}/g, randomUUID()),
    ...(cookie === undefined ? {} : { headers: { cookie } }),
  });

describe('the /api/ops role matrix (from the OpenAPI document)', () => {
  it('lists the operator routes, each either public (sign-in, enrolment) or with its roles', () => {
    expect(operations.length).toBeGreaterThan(20);
    for (const op of operations) {
      const key = `${op.method} ${op.path}`;
      if (PUBLIC.has(key)) expect(op.security, key).toEqual([]);
      else expect(op.roles.length, `${key} declares no role`).toBeGreaterThan(0);
    }
  });

  it('each operation refuses every other role (403), a user session and no session (401)', async () => {
    const checked: string[] = [];
    for (const op of operations) {
      const key = `${op.method} ${op.path}`;
      if (PUBLIC.has(key)) continue;
      for (const role of OPERATOR_ROLES.filter((r) => !op.roles.includes(r))) {
        const res = await call(op, cookies[role]);
        expect(res.statusCode, `${key} as ${role}: ${res.body}`).toBe(403);
        checked.push(`${key} ${role}`);
      }
      expect((await call(op, userCookie)).statusCode, `${key} as a user`).toBe(401);
      expect((await call(op)).statusCode, `${key} signed out`).toBe(401);
    }
    expect(checked.length).toBeGreaterThan(40);
  }, 120_000);

  it('each operation lets its own roles past the guard (neither 401 nor 403)', async () => {
    for (const op of operations) {
      const key = `${op.method} ${op.path}`;
      // Sign-out would end the role's session; an event stream would not end.
      if (PUBLIC.has(key) || key === 'DELETE /api/ops/session' || op.stream) continue;
      for (const role of op.roles) {
        const res = await call(op, cookies[role]);
        expect([401, 403], `${key} as ${role}: ${res.body}`).not.toContain(res.statusCode);
      }
    }
  }, 120_000);
});
