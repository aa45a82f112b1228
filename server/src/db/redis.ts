import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';

/** How long a command waits for a (re)connection before it fails, instead of queueing for ever. */
const CONNECT_TIMEOUT_MS = 5_000;

/**
 * REDIS_URL's client (ioredis): the global rate limit and the failed-attempt throttles count there
 * when it is set. A command fails after one retry while Redis is unreachable (the rate limit then lets
 * the request through; a throttle check fails the request), and the client keeps reconnecting.
 */
export function createRedis(url: string, logger?: Pick<FastifyBaseLogger, 'warn'>): Redis {
  const redis = new Redis(url, {
    connectTimeout: CONNECT_TIMEOUT_MS,
    maxRetriesPerRequest: 1,
    // Names the instance's connections in CLIENT LIST.
    connectionName: `cw-api-${process.pid}`,
  });
  let warned = false;
  redis.on('error', (err: Error) => {
    // ioredis emits an error per failed reconnect: one line per outage is enough.
    if (!warned) logger?.warn({ err }, 'redis unreachable; retrying');
    warned = true;
  });
  redis.on('ready', () => {
    warned = false;
  });
  return redis;
}
