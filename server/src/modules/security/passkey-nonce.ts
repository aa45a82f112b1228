import { createHash, randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CHALLENGE_TTL_MS } from './passkeys-service.ts';

/**
 * The password-less sign-in has no session to bind its challenge to, so POST /auth/passkey/options
 * sets a random nonce in a short-lived HttpOnly SameSite=Strict cookie and stores only its hash with
 * the challenge. POST /auth/passkey/login needs the same cookie: an answer obtained by a script in the
 * victim's page (the cookie is out of its reach) cannot be redeemed from the attacker's machine.
 */
export const NONCE_COOKIE = 'pk_nonce';
const NONCE_PATH = '/api/auth/passkey';

const hashNonce = (nonce: string) => createHash('sha256').update(nonce).digest('base64url');

/** Sets a fresh nonce cookie; returns the binding (its hash) to store with the challenge. */
export function issueSignInNonce(request: FastifyRequest, reply: FastifyReply): string {
  const nonce = randomBytes(32).toString('base64url');
  reply.setCookie(NONCE_COOKIE, nonce, {
    path: NONCE_PATH,
    httpOnly: true,
    sameSite: 'strict',
    secure: request.protocol === 'https',
    maxAge: Math.floor(CHALLENGE_TTL_MS / 1000),
  });
  return hashNonce(nonce);
}

/** The binding of the request's nonce cookie (and clears it: one sign-in per options), or null. */
export function takeSignInNonce(request: FastifyRequest, reply: FastifyReply): string | null {
  const nonce = request.cookies?.[NONCE_COOKIE];
  if (typeof nonce !== 'string' || nonce.length < 16 || nonce.length > 128) return null;
  reply.clearCookie(NONCE_COOKIE, { path: NONCE_PATH });
  return hashNonce(nonce);
}
