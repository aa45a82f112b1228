import { randomUUID } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../errors/app-error.ts';
import type { AuthenticatedUser, SessionResolver } from '../../http/authenticate.ts';
import { devicePendingSessionByToken } from '../security/devices-repository.ts';
import { hashToken, newSessionToken } from './secrets.ts';
import {
  findLiveSession,
  findPendingSession,
  insertSession,
  revokeBeyondNewest,
  revokePendingBeyondNewest,
  type SessionRow,
  sessionLive,
  touchSession,
} from './sessions-repository.ts';

export interface SessionOptions {
  /** Idle expiry: a session unused this long is dead. Default 30 minutes. */
  idleMinutes: number;
  /** Absolute expiry from sign-in. Default 7 days (168 hours). */
  absoluteHours: number;
  /**
   * `auto`: Secure + `__Host-sid` when the request came over HTTPS (see trustProxy), else `sid`;
   * `always`: always Secure + `__Host-sid`; `never`: always `sid` without Secure.
   */
  secureCookie: 'auto' | 'always' | 'never';
  /**
   * Live sessions a user may hold (SESSION_MAX_PER_USER, default 10): a sign-in beyond it ends the
   * least recently used one, so repeated logins cannot grow the table or the device list without end.
   */
  maxPerUser: number;
}

export const defaultSessionOptions: SessionOptions = {
  idleMinutes: 30,
  absoluteHours: 7 * 24,
  secureCookie: 'auto',
  maxPerUser: 10,
};

/** lastSeenAt is written at most this often. */
export const TOUCH_INTERVAL_MS = 60_000;
/** A password sign-in waiting for its second factor lives this long. */
export const FACTOR_PENDING_MS = 5 * 60_000;
/**
 * A sign-in from an unknown browser waits this long for the e-mailed code or link: long enough to
 * open the mail on a phone, short enough that an unconfirmed thief's session soon dies on its own.
 */
export const DEVICE_PENDING_MS = 15 * 60_000;
export const COOKIE_NAME = 'sid';
export const SECURE_COOKIE_NAME = '__Host-sid';

const sessionIds = new WeakMap<FastifyRequest, string>();
/** Requests whose cookie is a session waiting for its new-device confirmation (per request, not shared). */
const deviceRefusals = new WeakSet<FastifyRequest>();

/** The id of the session that authenticated this request (after the resolver ran). */
export function sessionIdOf(request: FastifyRequest): string | undefined {
  return sessionIds.get(request);
}

/** A usable session's row before it is inserted, and the cookie's token (only its hash is stored). */
export interface NewUsableSession {
  token: string;
  row: SessionRow;
}

export interface Sessions {
  readonly options: SessionOptions;
  resolver: SessionResolver;
  /** Starts a session with a fresh token (never reuses one: no fixation). */
  start(
    db: Kysely<Database>,
    userId: string,
    client: { ip: string; userAgent: string | null },
    options?: { factorPending?: boolean; devicePending?: boolean },
  ): Promise<{ token: string; session: SessionRow }>;
  /**
   * The row a usable session started at `at` would have, with its token, for a statement that inserts
   * it itself (security/login-factor-repository.ts); the caller also revokes beyond `options.maxPerUser`.
   */
  newUsableSession(userId: string, client: { ip: string; userAgent: string | null }, at: Date): NewUsableSession;
  /** The session of the cookie that waits for a new-device confirmation (security/new-device-routes.ts). */
  devicePendingOf(request: FastifyRequest): Promise<SessionRow | undefined>;
  /** The live session of the cookie that still waits for its second factor (POST /auth/login/factor). */
  pendingOf(request: FastifyRequest): Promise<SessionRow | undefined>;
  setCookie(request: FastifyRequest, reply: FastifyReply, token: string, expiresAt: Date): void;
  clearCookie(request: FastifyRequest, reply: FastifyReply): void;
  idleSince(now: Date): Date;
  /** Whether this request's cookies are the Secure, `__Host-` ones (the device cookie follows the same rule). */
  isSecure(request: FastifyRequest): boolean;
  /** Whether the session still holds (a long-lived stream asks again), without counting as activity. */
  isLive(sessionId: string): Promise<boolean>;
}

/**
 * The session token of the cookie this request may carry: only `__Host-sid` on a secure request. A
 * plain `sid` there could have been planted by a sibling subdomain (a login CSRF into the attacker's
 * account, whose deposit address the victim then pays); `__Host-` cookies can only be set by this host.
 */
function readToken(request: FastifyRequest, secure: boolean): string | undefined {
  const token = request.cookies?.[secure ? SECURE_COOKIE_NAME : COOKIE_NAME];
  return typeof token === 'string' && /^[A-Za-z0-9_-]{22}$/.test(token) ? token : undefined;
}

export function createSessions(deps: {
  db: Kysely<Database>;
  now: () => Date;
  options?: Partial<SessionOptions>;
}): Sessions {
  const options = { ...defaultSessionOptions, ...deps.options };
  const { db, now } = deps;
  const idleSince = (at: Date) => new Date(at.getTime() - options.idleMinutes * 60_000);
  const secure = (request: FastifyRequest) =>
    options.secureCookie === 'always' || (options.secureCookie === 'auto' && request.protocol === 'https');

  const resolver: SessionResolver = {
    refusalOf: (request) =>
      deviceRefusals.has(request)
        ? new AppError('DEVICE_CONFIRMATION_REQUIRED', 'Confirm this new device with the code or link we e-mailed')
        : undefined,
    async resolve(request): Promise<AuthenticatedUser | null> {
      const token = readToken(request, secure(request));
      if (token === undefined) return null;
      const at = now();
      const session = await findLiveSession(db, hashToken(token), at, idleSince(at));
      if (!session) {
        // Only when a cookie matched no usable session (rare): is it one waiting for its device?
        const pending = await devicePendingSessionByToken(db, hashToken(token), at);
        if (pending) deviceRefusals.add(request);
        return null;
      }
      if (at.getTime() - session.last_seen_at.getTime() >= TOUCH_INTERVAL_MS) await touchSession(db, session.id, at);
      sessionIds.set(request, session.id);
      return { userId: session.user_id };
    },
  };

  return {
    options,
    resolver,
    idleSince,
    isSecure: secure,
    isLive: (sessionId) => {
      const at = now();
      return sessionLive(db, sessionId, at, idleSince(at));
    },
    async start(trx, userId, client, startOptions) {
      const at = now();
      const token = newSessionToken();
      const factorPending = startOptions?.factorPending === true;
      const devicePending = startOptions?.devicePending === true;
      const lifetimeMs = factorPending
        ? FACTOR_PENDING_MS
        : devicePending
          ? DEVICE_PENDING_MS
          : options.absoluteHours * 3_600_000;
      const session = await insertSession(
        trx,
        {
          userId,
          tokenHash: hashToken(token),
          expiresAt: new Date(at.getTime() + lifetimeMs),
          userAgent: client.userAgent,
          ip: client.ip,
          factorPending,
          devicePending,
        },
        at,
      );
      // A pending one is no session yet: it must not push a usable one out.
      if (!factorPending && !devicePending) await revokeBeyondNewest(trx, userId, session.id, options.maxPerUser, at);
      else await revokePendingBeyondNewest(trx, userId, session.id, at);
      return { token, session };
    },
    newUsableSession(userId, client, at) {
      const token = newSessionToken();
      const row: SessionRow = {
        id: randomUUID(),
        user_id: userId,
        token_hash: hashToken(token),
        created_at: at,
        last_seen_at: at,
        expires_at: new Date(at.getTime() + options.absoluteHours * 3_600_000),
        revoked_at: null,
        user_agent: client.userAgent,
        ip: client.ip,
        factor_pending: false,
        device_pending: false,
        authenticated_at: at,
      };
      return { token, row };
    },
    async pendingOf(request) {
      const token = readToken(request, secure(request));
      if (token === undefined) return undefined;
      const at = now();
      return findPendingSession(db, hashToken(token), at);
    },
    async devicePendingOf(request) {
      const token = readToken(request, secure(request));
      if (token === undefined) return undefined;
      return devicePendingSessionByToken(db, hashToken(token), now());
    },
    setCookie(request, reply, token, expiresAt) {
      const isSecure = secure(request);
      const name = isSecure ? SECURE_COOKIE_NAME : COOKIE_NAME;
      reply.setCookie(name, token, {
        path: '/',
        httpOnly: true,
        sameSite: 'strict',
        secure: isSecure,
        expires: expiresAt,
      });
      // A leftover cookie under the other name would shadow or confuse; drop it.
      const other = isSecure ? COOKIE_NAME : SECURE_COOKIE_NAME;
      if (request.cookies?.[other] !== undefined)
        reply.clearCookie(other, { path: '/', secure: other === SECURE_COOKIE_NAME });
    },
    clearCookie(request, reply) {
      for (const name of [COOKIE_NAME, SECURE_COOKIE_NAME]) {
        if (request.cookies?.[name] !== undefined || name === (secure(request) ? SECURE_COOKIE_NAME : COOKIE_NAME)) {
          reply.clearCookie(name, {
            path: '/',
            httpOnly: true,
            sameSite: 'strict',
            secure: name === SECURE_COOKIE_NAME,
          });
        }
      }
    },
  };
}
