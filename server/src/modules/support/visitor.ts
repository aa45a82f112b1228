import { createHash, randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Uploader } from '../uploads/repository.ts';

/** A visitor's upload token: HttpOnly, sent to /api/support only, for a day. */
const COOKIE = 'cw_visitor';
const MAX_AGE_S = 86_400;

/**
 * Who uploads on the leave-a-message form: the signed-in user, or a visitor known by a random token
 * in a cookie of their own (only its hash is stored), so a visitor can attach their own pictures to
 * their message and nobody else's. The hourly limit for visitors is per IP.
 */
export function supportUploader(request: FastifyRequest, reply: FastifyReply | null): Uploader | null {
  if (request.user) return { userId: request.user.userId };
  let token = request.cookies?.[COOKIE];
  if (typeof token !== 'string' || !/^[A-Za-z0-9_-]{22}$/.test(token)) {
    if (!reply) return null;
    token = randomBytes(16).toString('base64url');
    reply.setCookie(COOKIE, token, {
      httpOnly: true,
      sameSite: 'strict',
      secure: request.protocol === 'https',
      path: '/api/support',
      maxAge: MAX_AGE_S,
    });
  }
  return { visitor: createHash('sha256').update(token).digest('hex'), ip: request.ip };
}
