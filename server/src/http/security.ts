import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import helmet from 'helmet';
import type { Redis } from 'ioredis';
import { AppError } from '../errors/app-error.ts';
import { CONSOLE_CSP_DIRECTIVES } from './console-surface.ts';
import { csrfGuard } from './csrf.ts';
import type { RemoteOrigins } from './remote-registry.ts';

export interface SecurityOptions {
  rateLimit: { max: number; windowMs: number };
  /** The counters' store class (rate-limit-store.ts, PostgreSQL); default: this process's memory. */
  rateLimitStore?: (new () => unknown) | undefined;
  /** REDIS_URL's client: the plugin's own Redis store counts there (and rateLimitStore is not used). */
  redis?: Redis | undefined;
  remoteOrigins: RemoteOrigins;
  /** Requests the operator console's listener took: they get the console's strict headers (console-surface.ts). */
  isConsoleRequest?: (request: FastifyRequest) => boolean;
}

/** The Content-Security-Policy directives; registry remote origins are added per request. */
export function cspDirectives(remoteOrigins: RemoteOrigins) {
  const selfAndRemotes = () => ["'self'", ...remoteOrigins.current()].join(' ');
  return {
    defaultSrc: ["'self'"],
    scriptSrc: [selfAndRemotes],
    // The mobile UI kit injects inline styles; remotes may ship their own CSS, fonts and images.
    styleSrc: [selfAndRemotes, "'unsafe-inline'"],
    imgSrc: [selfAndRemotes, 'data:', 'blob:'],
    fontSrc: [selfAndRemotes, 'data:'],
    connectSrc: [selfAndRemotes],
    workerSrc: ["'self'", 'blob:'],
    objectSrc: ["'none'"],
    baseUri: ["'self'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
  };
}

/** Helmet (with CSP), global rate limit (keyed by client IP) and the CSRF guard. */
export function registerSecurity(app: FastifyInstance, options: SecurityOptions): void {
  // helmet itself, built once. (@fastify/helmet 13 builds the middleware again on every request,
  // parsing the CSP each time: about a tenth of the API's CPU in bench:convert.) The remote origins
  // stay live: a directive given as a function is evaluated per response.
  const headers = helmet({
    contentSecurityPolicy: { useDefaults: false, directives: cspDirectives(options.remoteOrigins) },
    // Module Federation assets may be loaded by a host on another origin (e.g. the dev server).
    crossOriginResourcePolicy: { policy: 'same-site' },
    frameguard: { action: 'deny' },
  });
  // The operator console's origin: script-src 'self' and nothing of the remotes' (issue 38 item 5).
  const consoleHeaders = helmet({
    contentSecurityPolicy: { useDefaults: false, directives: CONSOLE_CSP_DIRECTIVES },
    crossOriginResourcePolicy: { policy: 'same-origin' },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
  });
  const isConsoleRequest = options.isConsoleRequest ?? (() => false);
  app.addHook('onRequest', (request, reply, done) => {
    const chosen = isConsoleRequest(request) ? consoleHeaders : headers;
    chosen(request.raw, reply.raw, (error?: unknown) => done(error instanceof Error ? error : undefined));
  });
  app.register(rateLimit, {
    global: true,
    max: options.rateLimit.max,
    timeWindow: options.rateLimit.windowMs,
    ...(options.redis
      ? // A Redis outage lets requests through rather than failing them: this limit is coarse (the
        // sign-in and fund-password throttles, also in Redis, fail closed).
        { redis: options.redis, nameSpace: 'rate-limit:', skipOnError: true }
      : options.rateLimitStore
        ? { store: options.rateLimitStore as never }
        : {}),
    // The wait travels in details too (the UI says it in words) and becomes the Retry-After header.
    errorResponseBuilder: (_request, context) =>
      new AppError('RATE_LIMITED', `Rate limit exceeded, retry in ${context.after}`, {
        details: { retryAfterSeconds: Math.max(1, Math.ceil(context.ttl / 1000)) },
      }),
  });
  app.addHook('onRequest', csrfGuard);
}
