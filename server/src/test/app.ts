import type { Kysely } from 'kysely';
import { type App, type AppDeps, buildApp } from '../app.ts';
import type { Database } from '../db/schema.ts';
import type { SessionResolver } from '../http/authenticate.ts';
import { type ConsoleSurface, cameThroughConsoleListener, judgedPaths } from '../http/console-surface.ts';
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

/** Header naming the listener an injected request stands for: `console` or `app`. */
export const TEST_LISTENER_HEADER = 'x-test-listener';
export const TEST_CONSOLE_ORIGIN = 'http://localhost:9466';

/**
 * Test seam for the console's own listener (http/console-surface.ts): `app.inject` has no socket to
 * tell the listeners apart, so an injected request counts as the console's when it says so
 * (`x-test-listener: console`) or, saying nothing, when it is for /api/ops (the module tests of the
 * operator API). The listener tests (console-surface.test.ts) use real listeners instead.
 */
export const testConsoleSurface: Partial<ConsoleSurface> = {
  origin: TEST_CONSOLE_ORIGIN,
  isConsoleRequest(request) {
    if (cameThroughConsoleListener(request)) return true;
    const said = request.headers[TEST_LISTENER_HEADER];
    if (said === 'console' || said === 'app') return said === 'console';
    return judgedPaths(request).some((p) => /^\/api\/ops(\/|$)/.test(p));
  },
};

/** buildApp with test defaults: header-based sessions, fixed clock, no static files, no logs, no order cap. */
export function buildTestApp(deps: Partial<AppDeps> & { db: Kysely<Database> }): App {
  return buildApp({
    sessionResolver: headerSessionResolver,
    console: testConsoleSurface,
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
