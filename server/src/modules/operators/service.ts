import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../errors/app-error.ts';
import { appendAudit } from '../audit/repository.ts';
import type { PasswordHasher } from '../auth/password-hashing.ts';
import { passwordProblem } from '../auth/rules.ts';
import { hashToken, newSessionToken } from '../auth/secrets.ts';
import { accountLoginPolicy, retryAfterSeconds } from '../auth/throttle-schedule.ts';
import { chargeKeys, loginThrottled, pgThrottleStore, type ThrottleStore } from '../auth/throttles.ts';
import {
  findLiveOperatorSession,
  findOperatorByName,
  insertOperator,
  insertOperatorSession,
  operatorSessionLive,
  revokeOperatorSession,
  revokeOperatorSessions,
  setOperatorPassword,
  touchOperatorSession,
} from './repository.ts';

/** The operator console's cookie: its own name, sent only to /api/ops, never a user's session. */
export const OPERATOR_COOKIE = 'ops_sid';
/** Its name when Secure: a `__Secure-` cookie cannot be set over plain HTTP or without Secure. */
export const SECURE_OPERATOR_COOKIE = '__Secure-ops_sid';
export const OPERATOR_COOKIE_PATH = '/api/ops';
/** Operators are signed out after 30 idle minutes and 12 hours after signing in, whatever they do. */
const IDLE_MS = 30 * 60_000;
const ABSOLUTE_MS = 12 * 3_600_000;
const TOUCH_INTERVAL_MS = 60_000;
export const OPERATOR_NAME_PATTERN = /^[a-z0-9_]{3,32}$/;

export interface SignedInOperator {
  operatorId: string;
  name: string;
  sessionId: string;
}

export interface OperatorsService {
  /** `npm run ops -- operators add <name>`: a new operator with a password that keeps the user rule. */
  add(name: string, password: string): Promise<{ id: string; name: string }>;
  setPassword(name: string, password: string): Promise<void>;
  signIn(name: string, password: string, ip: string): Promise<{ token: string; expiresAt: Date; name: string }>;
  resolve(request: FastifyRequest): Promise<SignedInOperator | null>;
  signOut(sessionId: string): Promise<void>;
  /** The cookie for this request: `__Secure-ops_sid` (Secure) as SESSION_SECURE_COOKIE says, else `ops_sid`. */
  cookieFor(request: FastifyRequest): { name: string; secure: boolean };
  /** Whether an operator session still holds (a long-lived stream asks again), without touching it. */
  isLive(sessionId: string): Promise<boolean>;
}

function checkedPassword(password: string): void {
  const problem = passwordProblem(password);
  if (problem !== null) throw new AppError('WEAK_PASSWORD', `Operator password breaks the rule: ${problem}`);
}

export function createOperatorsService(deps: {
  db: Kysely<Database>;
  now: () => Date;
  hasher: PasswordHasher;
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

  return {
    async add(name, password) {
      if (!OPERATOR_NAME_PATTERN.test(name))
        throw new AppError('VALIDATION_FAILED', 'Operator names are 3-32 of a-z 0-9 _');
      checkedPassword(password);
      const row = await insertOperator(db, name, await hasher.hash(password), now());
      return { id: row.id, name: row.name };
    },

    async setPassword(name, password) {
      checkedPassword(password);
      const passwordHash = await hasher.hash(password);
      // A new password ends every session: one stolen before the change must not outlive it.
      await db.transaction().execute(async (trx) => {
        if (!(await setOperatorPassword(trx, name, passwordHash)))
          throw new AppError('NOT_FOUND', `No operator ${name}`);
        const ended = await revokeOperatorSessions(trx, name, now());
        await appendAudit(trx, {
          event: 'operator_password_set',
          at: now(),
          details: { operator: name, sessionsEnded: ended },
        });
      });
    },

    async signIn(name, password, ip) {
      const at = now();
      const ipKey = `operator-ip:${ip}`;
      // Charged before argon2 runs, refunded when right: a burst of guesses cannot all pass one check.
      const charged = await chargeKeys(
        throttles,
        [throttleKey(name), ipKey].map((key) => ({ key, policy: accountLoginPolicy })),
        at,
      );
      if (!('states' in charged)) throw loginThrottled(charged.retryAfterSeconds);
      const operator = OPERATOR_NAME_PATTERN.test(name) ? await findOperatorByName(db, name) : undefined;
      let ok: boolean;
      try {
        ok =
          operator && operator.disabled_at === null
            ? await hasher.verify(operator.password_hash, password)
            : await hasher.verifyDummy(password);
      } catch (err) {
        await charged.refund(); // never verified (the hashing queue was full)
        throw err;
      }
      if (!ok || !operator) {
        await appendAudit(db, {
          event: 'operator_sign_in_failed',
          at,
          ip,
          details: { operator: name.slice(0, 64) },
        });
        const locked = Math.max(...charged.states.map((s) => retryAfterSeconds(s, at)));
        if (locked > 0) throw loginThrottled(locked);
        throw new AppError('INVALID_CREDENTIALS', 'Wrong operator name or password');
      }
      await charged.refund([ipKey]);
      await throttles.clear(throttleKey(name));
      const token = newSessionToken();
      const expiresAt = new Date(at.getTime() + ABSOLUTE_MS);
      await db.transaction().execute(async (trx) => {
        const session = await insertOperatorSession(
          trx,
          { operatorId: operator.id, tokenHash: hashToken(token), expiresAt },
          at,
        );
        await appendAudit(trx, {
          event: 'operator_signed_in',
          at,
          ip,
          details: { operator: operator.name, operatorId: operator.id, sessionId: session.id },
        });
      });
      return { token, expiresAt, name: operator.name };
    },

    async resolve(request) {
      // Only the cookie of this request's kind: a plain one over HTTPS may have been planted.
      const token = request.cookies?.[cookieFor(request).name];
      if (typeof token !== 'string' || !/^[A-Za-z0-9_-]{22}$/.test(token)) return null;
      const at = now();
      const found = await findLiveOperatorSession(db, hashToken(token), at, new Date(at.getTime() - IDLE_MS));
      if (!found) return null;
      if (at.getTime() - found.lastSeenAt.getTime() >= TOUCH_INTERVAL_MS)
        await touchOperatorSession(db, found.sessionId, at);
      return { operatorId: found.operatorId, name: found.name, sessionId: found.sessionId };
    },

    cookieFor,

    isLive(sessionId) {
      const at = now();
      return operatorSessionLive(db, sessionId, at, new Date(at.getTime() - IDLE_MS));
    },

    async signOut(sessionId) {
      await revokeOperatorSession(db, sessionId, now());
    },
  };
}
