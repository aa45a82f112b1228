import type { Kysely } from 'kysely';
import type { App } from '../../app.ts';
import type { Database } from '../../db/schema.ts';
import { totpCode } from '../security/totp.ts';
import { createOperatorAccounts } from './accounts-service.ts';
import type { OperatorRole } from './roles.ts';

export const TEST_OPERATOR_PASSWORD = 'Ops-Pass-2030';

export interface TestOperator {
  id: string;
  name: string;
  /** `ops_sid=...` for a cookie header (the session the enrolment started). */
  cookie: string;
  /** The authenticator secret (base32), to compute codes as an app does. */
  secret: string;
}

/**
 * Test-only: adds an operator with `roles` (as the ops CLI does) and enrols them through the real
 * routes (POST /api/ops/enrolment/start and /finish, with the password and a code), which signs in.
 */
export async function addTestOperator(
  app: App,
  deps: { db: Kysely<Database>; now: () => Date },
  name: string,
  roles: OperatorRole[] = ['support'],
): Promise<TestOperator> {
  const added = await createOperatorAccounts(deps).add({ kind: 'cli' }, name, roles);
  const start = await app.inject({ method: 'POST', url: '/api/ops/enrolment/start', payload: { token: added.token } });
  if (start.statusCode !== 200) throw new Error(`enrolment start: ${start.statusCode} ${start.body}`);
  const { secret } = start.json() as { secret: string };
  const finish = await app.inject({
    method: 'POST',
    url: '/api/ops/enrolment/finish',
    payload: { token: added.token, password: TEST_OPERATOR_PASSWORD, totpCode: totpCode(secret, deps.now()) },
  });
  if (finish.statusCode !== 200) throw new Error(`enrolment finish: ${finish.statusCode} ${finish.body}`);
  const cookie = String(finish.headers['set-cookie']).split(';')[0] as string;
  return { id: added.id, name, cookie, secret };
}

/** Test-only: adds and enrols an operator; returns `ops_sid=...` for a cookie header. */
export async function operatorCookie(
  app: App,
  deps: { db: Kysely<Database>; now: () => Date },
  name: string,
  roles: OperatorRole[] = ['support'],
): Promise<string> {
  return (await addTestOperator(app, deps, name, roles)).cookie;
}

/**
 * A sign-in body with the code of the step `stepsAhead` after `at` (the server accepts ±1 step): the
 * enrolment spent the current step's code, and a code works once.
 */
export function operatorSignInBody(operator: { name: string; secret: string }, at: Date, stepsAhead = 1) {
  return {
    name: operator.name,
    password: TEST_OPERATOR_PASSWORD,
    totpCode: totpCode(operator.secret, new Date(at.getTime() + stepsAhead * 30_000)),
  };
}
