import type { Kysely } from 'kysely';
import type { App } from '../../app.ts';
import type { Database } from '../../db/schema.ts';
import { createPasswordHasher } from '../auth/password-hashing.ts';
import { createOperatorsService } from './service.ts';

export const TEST_OPERATOR_PASSWORD = 'Ops-Pass-2030';

/** Test-only: adds an operator (the real service and hasher) and signs in; returns `ops_sid=...` for a cookie header. */
export async function operatorCookie(
  app: App,
  deps: { db: Kysely<Database>; now: () => Date },
  name: string,
): Promise<string> {
  const hasher = createPasswordHasher();
  try {
    await createOperatorsService({ ...deps, hasher }).add(name, TEST_OPERATOR_PASSWORD);
  } finally {
    await hasher.close();
  }
  const res = await app.inject({
    method: 'POST',
    url: '/api/ops/session',
    payload: { name, password: TEST_OPERATOR_PASSWORD },
  });
  return String(res.headers['set-cookie']).split(';')[0] as string;
}
