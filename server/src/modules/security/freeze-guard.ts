import type { FastifyInstance, FastifyRequest, onRequestHookHandler, RouteOptions } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { resolveUser } from '../../http/authenticate.ts';
import { accountFrozenError, freezeState } from './freeze-state.ts';

/**
 * A frozen account may still sign in, read, sign sessions out, talk to support and unfreeze; every
 * other change through the API is refused with ACCOUNT_FROZEN before the route runs: money
 * (withdrawals, sends, exchange orders, sells, converts, payout methods, rewards), the address book,
 * the fund password, mail to others, and every security change (review of issue 31, F3): a factor
 * added or removed, recovery codes, the anti-phishing phrase, the allowlist, the password. A thief who
 * knows only the password could otherwise sign in to the frozen account and enrol their own factor,
 * which the owner's next sign-in and a password reset would then ask for. The owner who needs a new
 * password while frozen resets it by e-mail (/api/auth/, proof of the mailbox). These prefixes are
 * what stays open; a new route is closed to a frozen user unless it is added here (freeze.api.test.ts
 * walks the OpenAPI document).
 */
const OPEN_WHILE_FROZEN = [
  '/api/auth/',
  '/api/me/security/freeze',
  '/api/me/security/reauth',
  // A passkey's answer for the unfreeze (the step-up challenge; registration stays closed).
  '/api/me/security/passkeys/challenge',
  '/api/me/sessions',
  '/api/me/settings',
  '/api/security/',
  // "I have transferred" only matches the click against deposits; crediting is the watcher's (F8).
  '/api/wallet/deposits/',
  '/api/notices/',
  '/api/support/',
  '/api/tickets',
  '/api/chat/',
  '/api/uploads',
  '/api/ops/',
  '/api/ramp/webhooks/',
  '/dev/',
];

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function closedWhileFrozen(method: string, url: string): boolean {
  if (READS.has(method.toUpperCase())) return false;
  if (!url.startsWith('/api/')) return false;
  return !OPEN_WHILE_FROZEN.some((prefix) => url.startsWith(prefix));
}

/**
 * Adds the check to every closed route registered after this call (an onRoute hook), as the first
 * preValidation step after the route's own sign-in check: an anonymous request is left to the route.
 */
export function registerFreezeGuard(app: FastifyInstance, deps: { db: Kysely<Database>; now: () => Date }): void {
  const guard = async (request: FastifyRequest) => {
    await resolveUser(request);
    const user = request.user;
    if (user === null) return;
    const at = deps.now();
    const state = await freezeState(deps.db, user.userId, at);
    if (state.frozen) throw accountFrozenError(state, at);
  };
  app.addHook('onRoute', (route: RouteOptions) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!methods.some((m) => closedWhileFrozen(m, route.url ?? ''))) return;
    const existing = route.preValidation;
    const list = existing === undefined ? [] : Array.isArray(existing) ? existing : [existing];
    route.preValidation = [...list, guard as unknown as onRequestHookHandler];
  });
}
