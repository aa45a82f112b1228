import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { hashToken } from '../auth/secrets.ts';

/**
 * The device cookie: a random id (256 bits) that marks one browser for years, so a sign-in can tell a
 * browser the user confirmed from one never seen (issue 31). Not the IP: phones and offices change
 * addresses all day, and an attacker can share the victim's network.
 *
 * - HttpOnly: no script (nor an XSS) reads it to clone the device.
 * - Same prefix rules as the session cookie (auth/sessions.ts): on a secure request only
 *   `__Host-did` is read — a plain `did` there could have been planted by a sibling subdomain.
 * - SameSite=Lax, not Strict like the session: the id authorises nothing alone (the password is still
 *   asked), and Lax keeps it on the top-level navigation from the mail's approve link.
 * - 400 days: the most a browser keeps a cookie (Chrome caps Max-Age there); every sign-in renews it.
 * - Stored hashed (known_devices.device_hash): a database reader cannot mint a known device.
 */
export const DEVICE_COOKIE = 'did';
export const SECURE_DEVICE_COOKIE = '__Host-did';
const MAX_AGE_S = 400 * 86_400;
const ID_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** The request's device id, when it carries a well-formed one under the name its scheme allows. */
export function readDeviceId(request: FastifyRequest, secure: boolean): string | undefined {
  const id = request.cookies?.[secure ? SECURE_DEVICE_COOKIE : DEVICE_COOKIE];
  return typeof id === 'string' && ID_PATTERN.test(id) ? id : undefined;
}

/** The browser's device id: the one it sent, else a fresh one (set with `setDeviceCookie` on success). */
export function deviceIdFor(request: FastifyRequest, secure: boolean): string {
  return readDeviceId(request, secure) ?? randomBytes(32).toString('base64url');
}

/**
 * (Re)sets the device cookie after a sign-in or registration went through, so a browser in use never
 * lets it lapse; a failed sign-in sets nothing (its answer stays the same for unknown names).
 */
export function setDeviceCookie(reply: FastifyReply, id: string, secure: boolean): void {
  reply.setCookie(secure ? SECURE_DEVICE_COOKIE : DEVICE_COOKIE, id, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure,
    maxAge: MAX_AGE_S,
  });
}

export function deviceHash(deviceId: string): Buffer {
  return hashToken(deviceId);
}

/** The hash of the asking browser's device id (auth/client.ts `deviceId`), or undefined without one. */
export function deviceHashOf(client: { deviceId?: string | undefined }): Buffer | undefined {
  return client.deviceId === undefined ? undefined : deviceHash(client.deviceId);
}
