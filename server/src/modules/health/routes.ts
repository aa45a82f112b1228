import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { type Kysely, sql } from 'kysely';
import { Type } from 'typebox';
import type { Database } from '../../db/schema.ts';
import { ServiceUnavailableError } from '../../errors/app-error.ts';
import { errorResponses } from '../../errors/schema.ts';

const Status = Type.Object({ status: Type.Literal('ok') }, { additionalProperties: false });

export interface HealthRoutesOptions {
  db: Kysely<Database>;
  /** How long `select 1` may take before the app counts as not ready. */
  readyTimeoutMs?: number;
}

async function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export const healthRoutes: FastifyPluginAsyncTypebox<HealthRoutesOptions> = async (
  app,
  { db, readyTimeoutMs = 2_000 },
) => {
  app.get(
    '/health',
    {
      schema: {
        tags: ['ops'],
        summary: 'Liveness: the process is up (does not touch the database)',
        response: { 200: Status, ...errorResponses() },
      },
      config: { rateLimit: false },
    },
    async () => ({ status: 'ok' as const }),
  );

  app.get(
    '/ready',
    {
      schema: {
        tags: ['ops'],
        summary: 'Readiness: the database answers',
        response: { 200: Status, ...errorResponses(503) },
      },
      config: { rateLimit: false },
    },
    async (request) => {
      try {
        await withTimeout(sql`select 1`.execute(db), readyTimeoutMs);
      } catch (err) {
        request.log.warn({ err }, 'readiness check failed');
        throw new ServiceUnavailableError('Database not reachable', err);
      }
      return { status: 'ok' as const };
    },
  );
};
