import type { FastifyInstance, FastifyRequest } from 'fastify';
import { UnauthenticatedError } from '../errors/app-error.ts';

export interface AuthenticatedUser {
  userId: string;
}

/**
 * Turns a request into the signed-in user, or null. The auth module provides
 * the real implementation (sessions); tests may pass a fake one.
 */
export interface SessionResolver {
  resolve(request: FastifyRequest): Promise<AuthenticatedUser | null>;
  /**
   * Why a request that resolved to nobody is refused, when it is more than "not signed in" (a session
   * waiting for its new-device confirmation: DEVICE_CONFIRMATION_REQUIRED), after `resolve` ran.
   */
  refusalOf?(request: FastifyRequest): Error | undefined;
}

/** Default until sessions exist: nobody is signed in. */
export const anonymousSessionResolver: SessionResolver = {
  resolve: async () => null,
};

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by `requireUser` (or `resolveUser`); null when anonymous or not yet resolved. */
    user: AuthenticatedUser | null;
  }
  interface FastifyInstance {
    sessionResolver: SessionResolver;
  }
}

export function registerAuthentication(app: FastifyInstance, resolver: SessionResolver): void {
  app.decorate('sessionResolver', resolver);
  app.decorateRequest('user', null);
}

/** Hook: sets `request.user` from the SessionResolver, if anyone is signed in. */
export async function resolveUser(request: FastifyRequest): Promise<void> {
  if (request.user === null) request.user = await request.server.sessionResolver.resolve(request);
}

/**
 * Hook: sets `request.user` or fails with UNAUTHENTICATED (401). Use it as
 * `preValidation: requireUser` (or `preHandler`): preValidation refuses anonymous
 * requests before body validation (401 rather than 400) and still runs after the
 * global onRequest hooks (rate limit, CSRF guard).
 */
export async function requireUser(request: FastifyRequest): Promise<void> {
  await resolveUser(request);
  if (request.user === null) throw request.server.sessionResolver.refusalOf?.(request) ?? new UnauthenticatedError();
}

/** The user set by `requireUser`; use in handlers of routes that have it. */
export function currentUser(request: FastifyRequest): AuthenticatedUser {
  if (request.user === null) throw new UnauthenticatedError();
  return request.user;
}
