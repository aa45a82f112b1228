import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { errorResponses } from '../../errors/schema.ts';
import { NoContent } from '../auth/schemas.ts';
import { recordClientEvents } from './repository.ts';
import { BODY_LIMIT_BYTES, ClientEventsBody } from './schemas.ts';

/**
 * Reports per client (IP, counted in PostgreSQL by the rate-limit store) per minute: a thirtieth of
 * the global per-client limit, at least 30 (a page sends at most one report a second while remotes
 * load). Relative, so a deployment (or the e2e suite, where every browser is 127.0.0.1) that raises
 * the global limit raises this one with it.
 */
export function clientEventsPerMinute(globalPerMinute: number): number {
  return Math.max(30, Math.floor(globalPerMinute / 30));
}

export interface ClientEventsOptions {
  db: Kysely<Database>;
  /**
   * The remote versions the registry names now (`<remote>@<version>`), or null when there is no
   * registry (API-only tests): reports of other versions are dropped, so made-up names cannot add rows.
   */
  knownVersions: () => Promise<Set<string> | null>;
  /** The global per-client limit per minute (clientEventsPerMinute). */
  globalPerMinute: number;
}

/**
 * POST /api/client-events: the host's reports of remote loads and load failures (issue 35), read by
 * `npm run canary -- status` and the canary watch. Anonymous on purpose: nothing of the visitor is
 * kept (no user id, no IP; the IP only keys the rate limit). Answers 204 whatever was counted.
 */
export const clientEventsRoutes: FastifyPluginAsyncTypebox<ClientEventsOptions> = async (
  app,
  { db, knownVersions, globalPerMinute },
) => {
  app.post(
    '/client-events',
    {
      bodyLimit: BODY_LIMIT_BYTES,
      config: { rateLimit: { max: clientEventsPerMinute(globalPerMinute), timeWindow: 60_000 } },
      schema: {
        tags: ['client-events'],
        summary: 'Report remote loads and load failures (counted per remote, version, kind and error code; anonymous)',
        body: ClientEventsBody,
        response: { 204: NoContent, ...errorResponses(400, 413) },
      },
    },
    async (request, reply) => {
      const known = await knownVersions();
      const events = known
        ? request.body.events.filter((e) => known.has(`${e.remote}@${e.version}`))
        : request.body.events;
      await recordClientEvents(db, events);
      return reply.code(204).send(null);
    },
  );
};
