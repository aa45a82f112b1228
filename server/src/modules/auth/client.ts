import type { FastifyRequest } from 'fastify';
import { resolveUser } from '../../http/authenticate.ts';
import { readDeviceId } from '../security/device-cookie.ts';
import { sessionIdOf } from './sessions.ts';

/** Who is asking, as a service needs it: plain data, no HTTP objects (routes build it, services read it). */
export interface Client {
  ip: string;
  /** The User-Agent header, at most 500 characters (shown in the sessions list). */
  userAgent: string | null;
  /** The signed-in user, or null. */
  userId: string | null;
  /** The session the request came with, or null. */
  sessionId: string | null;
  /**
   * The browser's device id (security/device-cookie.ts), set by the sign-in routes only: a sign-in
   * without one is from an unknown device.
   */
  deviceId?: string;
}

const USER_AGENT_MAX = 500;

/** The request's client; resolves the session cookie (once per request) when a route has not yet. */
export async function clientOf(request: FastifyRequest): Promise<Client> {
  await resolveUser(request);
  return {
    ...signInClientOf(request),
    userId: request.user?.userId ?? null,
    sessionId: sessionIdOf(request) ?? null,
  };
}

/**
 * clientOf with the browser's device cookie when it carries one (never a fresh id): for the steps that
 * forget the account's other known browsers and keep this one (security/devices-repository.ts).
 */
export async function clientWithDevice(request: FastifyRequest, secure: boolean): Promise<Client> {
  const client = await clientOf(request);
  const deviceId = readDeviceId(request, secure);
  return deviceId === undefined ? client : { ...client, deviceId };
}

/**
 * The client of a sign-in step whose cookie is a pending sign-in, never a usable session (the second
 * factor's step): nobody is signed in, and resolving the cookie would cost two lookups that find nothing.
 */
export function signInClientOf(request: FastifyRequest): Client {
  const userAgent = request.headers['user-agent'];
  return {
    ip: request.ip,
    userAgent: typeof userAgent === 'string' ? userAgent.slice(0, USER_AGENT_MAX) : null,
    userId: null,
    sessionId: null,
  };
}
