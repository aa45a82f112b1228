import type { Kysely } from 'kysely';
import { type App, type AppDeps, buildApp } from '../app.ts';
import type { Database } from '../db/schema.ts';
import type { SessionResolver } from '../http/authenticate.ts';
import { testUsdPrices } from '../modules/prices/test-prices.ts';

/** Header that the test session resolver reads the signed-in user id from. */
export const TEST_USER_HEADER = 'x-test-user-id';

/** Test seam for authentication: the user id comes from the `x-test-user-id` header. */
export const headerSessionResolver: SessionResolver = {
  async resolve(request) {
    const userId = request.headers[TEST_USER_HEADER];
    return typeof userId === 'string' && userId !== '' ? { userId } : null;
  },
};

/** buildApp with test defaults: header-based sessions, fixed clock, no static files, no logs, no order cap. */
export function buildTestApp(deps: Partial<AppDeps> & { db: Kysely<Database> }): App {
  return buildApp({
    sessionResolver: headerSessionResolver,
    now: () => new Date('2030-01-02T03:04:05.000Z'),
    ...deps,
    // Fixed USD prices value outflows in their review budget (a test may give its own).
    wallet: { prices: testUsdPrices, ...deps.wallet },
    // Tests place many orders as one user; the unpaid-order cap has its own test (orders.api.test.ts).
    exchange: { maxUnpaidOrders: TEST_MAX_UNPAID_ORDERS, ...deps.exchange },
  });
}

const TEST_MAX_UNPAID_ORDERS = 1000;

/** Inserts a user row and returns its id. */
export async function createUser(db: Kysely<Database>): Promise<string> {
  const { id } = await db.insertInto('users').defaultValues().returning('id').executeTakeFirstOrThrow();
  return id;
}
