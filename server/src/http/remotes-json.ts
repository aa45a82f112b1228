import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isPerVisitor, registryForVisitor, type StoredRegistry } from './remote-canary.ts';

/** The anonymous visitor id a canary buckets a signed-out browser by (random, nothing personal in it). */
export const RELEASE_BUCKET_COOKIE = 'rbid';
const ID_PATTERN = /^[A-Za-z0-9_-]{22}$/;
const MAX_AGE_S = 400 * 86_400;

export interface RemotesJsonOptions {
  /** The signed-in user's id, if any: a user keeps one bucket on every device. */
  userIdOf?: (request: FastifyRequest) => Promise<string | null>;
}

/**
 * `/remotes.json`: read per request (deploys replace it by rename), answered per visitor when a remote
 * has a canary or pins (remote-canary.ts), with `private, no-store` on that answer only; otherwise the
 * same registry for everyone, `no-cache` as before.
 */
export function registerRemotesJson(app: FastifyInstance, registryFile: string, options: RemotesJsonOptions): void {
  app.get('/remotes.json', { schema: { hide: true } }, async (request, reply) => {
    let stored: StoredRegistry;
    try {
      stored = JSON.parse(await readFile(registryFile, 'utf8')) as StoredRegistry;
    } catch {
      return reply.code(404).type('text/plain; charset=utf-8').send('Not Found');
    }
    reply.type('application/json; charset=utf-8');
    if (!isPerVisitor(stored)) return reply.header('cache-control', 'no-cache').send(registryForVisitor(stored, null));
    const visitor = await visitorKey(request, reply, options);
    return reply.header('cache-control', 'private, no-store').send(registryForVisitor(stored, visitor));
  });
}

async function visitorKey(request: FastifyRequest, reply: FastifyReply, options: RemotesJsonOptions): Promise<string> {
  const userId = await options.userIdOf?.(request).catch(() => null);
  if (userId) return `u:${userId}`;
  const sent = request.cookies?.[RELEASE_BUCKET_COOKIE];
  if (typeof sent === 'string' && ID_PATTERN.test(sent)) return `a:${sent}`;
  const id = randomBytes(16).toString('base64url');
  reply.setCookie(RELEASE_BUCKET_COOKIE, id, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: request.protocol === 'https',
    maxAge: MAX_AGE_S,
  });
  return `a:${id}`;
}
