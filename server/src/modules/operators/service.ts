import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../errors/app-error.ts';
import { clientNetwork } from '../../lib/client-network.ts';
import { appendAudit } from '../audit/repository.ts';
import type { PasswordHasher } from '../auth/password-hashing.ts';
import { hashToken, newSessionToken } from '../auth/secrets.ts';
import { accountLoginPolicy, retryAfterSeconds } from '../auth/throttle-schedule.ts';
import { chargeKeys, loginThrottled, pgThrottleStore, type ThrottleStore } from '../auth/throttles.ts';
import type { Sealer } from '../payment-methods/sealing.ts';
import { matchTotpStep } from '../security/totp.ts';
import {
  acceptOperatorTotpStep,
  findLiveOperatorSession,
  findOperatorByName,
  insertOperatorSession,
  type OperatorRow,
  operatorSessionLive,
  revokeOperatorSession,
  touchOperatorSession,
} from './repository.ts';
import type { OperatorRole } from './roles.ts';

/** The operator console's cookie: its own name, sent only to /api/ops, never a user's session. */
export const OPERATOR_COOKIE = 'ops_sid';
/**
 * Its name when Secure: a `__Host-` cookie is Secure, has Path=/ and no Domain, so a sibling subdomain
 * cannot plant one (a `__Secure-ops_sid; Domain=example.com; Path=/api/ops/chat` could shadow the
 * console's: review s6b, finding 10). The console has its own host, so Path=/ reaches only it.
 */
export const SECURE_OPERATOR_COOKIE = '__Host-ops_sid';
/** The plain (development) cookie stays scoped to the API: the app may share the host on another port. */
export const OPERATOR_COOKIE_PATH = '/api/ops';
export const SECURE_OPERATOR_COOKIE_PATH = '/';
/** Operators are signed out after 15 idle minutes and 8 hours after signing in, whatever they do (issue 32). */
export const OPERATOR_IDLE_MS = 15 * 60_000;
export const OPERATOR_ABSOLUTE_MS = 8 * 3_600_000;
const TOUCH_INTERVAL_MS = 60_000;
export const OPERATOR_NAME_PATTERN = /^[a-z0-9_]{3,32}$/;

export interface SignedInOperator {
  operatorId: string;
  name: string;
  roles: OperatorRole[];
  sessionId: string;
}

/** The AES-GCM binding of an operator's authenticator secret: a sealed value copied to another row does not open. */
export const totpBinding = (operatorId: string) => `operator-totp:${operatorId}`;

/** Starts a session for `operator` in `trx` (sign-in, or the end of enrolment); returns its token. */
export async function startOperatorSession(
  trx: Kysely<Database>,
  operator: { id: string; name: string },
  ip: string,
  at: Date,
  /** More to record with the sign-in (how: `{ method: 'passkey', passkeyId }`). */
  extra: Record<string, string> = {},
): Promise<{ token: string; expiresAt: Date }> {
  const token = newSessionToken();
  const expiresAt = new Date(at.getTime() + OPERATOR_ABSOLUTE_MS);
  const session = await insertOperatorSession(
    trx,
    { operatorId: operator.id, tokenHash: hashToken(token), expiresAt },
    at,
  );
  await appendAudit(trx, {
    event: 'operator_signed_in',
    at,
    ip,
    details: { ...extra, operator: operator.name, operatorId: operator.id, sessionId: session.id },
  });
  return { token, expiresAt };
}

export interface OperatorsService {
  /** Password and a code of the authenticator app, both needed (no operator works with a password alone). */
  signIn(
    input: { name: string; password: string; totpCode: string },
    ip: string,
  ): Promise<{ token: string; expiresAt: Date; name: string }>;
  resolve(request: FastifyRequest): Promise<SignedInOperator | null>;
  /** As `resolve`, for a token just issued (the sign-in's answer names the roles). */
  resolveToken(token: string): Promise<SignedInOperator | null>;
  signOut(sessionId: string): Promise<void>;
  /** The cookie for this request: `__Host-ops_sid` (Secure) as SESSION_SECURE_COOKIE says, else `ops_sid`. */
  cookieFor(request: FastifyRequest): { name: string; secure: boolean };
  /** Whether an operator session still holds (a long-lived stream asks again), without touching it. */
  isLive(sessionId: string, anyOfRoles?: readonly OperatorRole[]): Promise<boolean>;
}

export function createOperatorsService(deps: {
  db: Kysely<Database>;
  now: () => Date;
  hasher: PasswordHasher;
  /** Seals operators' authenticator secrets (the payout data key, as users' TOTP secrets). */
  sealer: Sealer;
  /** Default: in PostgreSQL. */
  throttles?: ThrottleStore;
  /** SESSION_SECURE_COOKIE, as for users' sessions; default `auto` (Secure when the request is HTTPS). */
  secureCookie?: 'auto' | 'always' | 'never';
}): OperatorsService {
  const { db, now, hasher } = deps;
  const secureCookie = deps.secureCookie ?? 'auto';
  const cookieFor = (request: FastifyRequest) => {
    const secure = secureCookie === 'always' || (secureCookie === 'auto' && request.protocol === 'https');
    return { name: secure ? SECURE_OPERATOR_COOKIE : OPERATOR_COOKIE, secure };
  };
  const throttles = deps.throttles ?? pgThrottleStore(db);
  // Operators share the login throttle schedule; their keys cannot meet a user's.
  const throttleKey = (name: string) => `operator:${name}`;
  const codeStep = (operator: OperatorRow, code: string, at: Date): number | null => {
    if (operator.totp_secret_sealed === null) return null;
    const { secret } = deps.sealer.open(operator.totp_secret_sealed, totpBinding(operator.id));
    return secret === undefined ? null : matchTotpStep(secret, code, at);
  };
  const codeAccepted = async (operator: OperatorRow, code: string, at: Date): Promise<boolean> => {
    const step = codeStep(operator, code, at);
    return step !== null && (await acceptOperatorTotpStep(db, operator.id, step));
  };

  const resolveToken = async (token: string): Promise<SignedInOperator | null> => {
    if (!/^[A-Za-z0-9_-]{22}$/.test(token)) return null;
    const at = now();
    const found = await findLiveOperatorSession(db, hashToken(token), at, new Date(at.getTime() - OPERATOR_IDLE_MS));
    if (!found) return null;
    if (at.getTime() - found.lastSeenAt.getTime() >= TOUCH_INTERVAL_MS)
      await touchOperatorSession(db, found.sessionId, at);
    return { operatorId: found.operatorId, name: found.name, roles: found.roles, sessionId: found.sessionId };
  };

  return {
    async signIn({ name, password, totpCode }, ip) {
      const at = now();
      const ipKey = `operator-ip:${clientNetwork(ip)}`;
      // Charged before argon2 runs, refunded when right: a burst of guesses cannot all pass one check.
      const byIp = await chargeKeys(throttles, [{ key: ipKey, policy: accountLoginPolicy }], at);
      if (!('states' in byIp)) throw loginThrottled(byIp.retryAfterSeconds);
      const byName = await chargeKeys(throttles, [{ key: throttleKey(name), policy: accountLoginPolicy }], at);
      const operator = OPERATOR_NAME_PATTERN.test(name) ? await findOperatorByName(db, name) : undefined;
      // Review 32a, finding 11: operators are few and easy to name, so anyone could keep one locked
      // out by failing as them. A name under lock still lets through a request within its IP's budget
      // that shows the operator's current authenticator code; then the password decides, and a wrong
      // one answers the same "throttled" as a wrong code, so the lane tells a guesser nothing.
      const nameLocked = !('states' in byName);
      if (nameLocked && !(operator && codeStep(operator, totpCode, at) !== null))
        throw loginThrottled(byName.retryAfterSeconds);
      const charged = {
        states: [...byIp.states, ...(nameLocked ? [] : byName.states)],
        refund: async () => {
          await byIp.refund();
          if (!nameLocked) await byName.refund();
        },
      };
      let ok: boolean;
      // Only an enrolled, enabled operator can pass; the others cost the same argon2 time.
      const usable = operator && operator.disabled_at === null && operator.totp_confirmed_at !== null;
      try {
        ok =
          usable && operator.password_hash !== null
            ? await hasher.verify(operator.password_hash, password)
            : await hasher.verifyDummy(password);
      } catch (err) {
        await charged.refund(); // never verified (the hashing queue was full)
        throw err;
      }
      // The code is checked only after the password, and a wrong one fails alike: which of the two
      // was wrong is not told. A code is accepted once (the step is stored conditionally).
      if (ok && operator) ok = await codeAccepted(operator, totpCode, at);
      if (!ok || !operator) {
        await appendAudit(db, {
          event: 'operator_sign_in_failed',
          at,
          ip,
          details: { operator: name.slice(0, 64) },
        });
        const locked = Math.max(
          nameLocked ? byName.retryAfterSeconds : 0,
          ...charged.states.map((s) => retryAfterSeconds(s, at)),
        );
        if (locked > 0) throw loginThrottled(locked);
        throw new AppError('INVALID_CREDENTIALS', 'Wrong operator name, password or code');
      }
      await byIp.refund();
      await throttles.clear(throttleKey(name));
      const { token, expiresAt } = await db.transaction().execute((trx) => startOperatorSession(trx, operator, ip, at));
      return { token, expiresAt, name: operator.name };
    },

    async resolve(request) {
      // Only the cookie of this request's kind: a plain one over HTTPS may have been planted.
      const token = request.cookies?.[cookieFor(request).name];
      return typeof token === 'string' ? resolveToken(token) : null;
    },

    resolveToken,

    cookieFor,

    isLive(sessionId, anyOfRoles) {
      const at = now();
      return operatorSessionLive(db, sessionId, at, new Date(at.getTime() - OPERATOR_IDLE_MS), anyOfRoles);
    },

    async signOut(sessionId) {
      await revokeOperatorSession(db, sessionId, now());
    },
  };
}
