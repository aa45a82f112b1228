import { type TypeBoxTypeProvider, TypeBoxValidatorCompiler } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { ConfigError } from '../config.ts';
import type { Database } from '../db/schema.ts';
import { devMailboxRoutes } from '../modules/mail/routes.ts';
import type { DevClock } from './clock.ts';
import { devClockRoutes } from './clock-routes.ts';

/**
 * The development-only routes (GET /dev/mailbox[.json], POST /dev/clock) on their own listener,
 * bound to 127.0.0.1, never on the app's port (issue 38 item 11). Before, they were on the app port
 * behind a check of `request.ip`, which a local reverse proxy without TRUST_PROXY makes 127.0.0.1 for
 * every visitor: anyone could read every user's e-mail codes. A socket bound to loopback is reachable
 * from this machine only, whatever sits in front of the app port.
 *
 * DEV_PORT: its port (default 9465; `off`: none; 0: any free port, logged).
 */
export const DEV_HOST = '127.0.0.1';
const DEV_PORT_DEFAULT = 9465;

export function devPortFromEnv(env: NodeJS.ProcessEnv): number | null {
  const text = env.DEV_PORT?.trim() || String(DEV_PORT_DEFAULT);
  if (text === 'off') return null;
  const port = Number(text);
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new ConfigError(['DEV_PORT must be a port (0..65535) or "off"']);
  return port;
}

export interface DevServerOptions {
  db: Kysely<Database>;
  /** DEV_MAILBOX: the mailbox routes answer (else 404). */
  devMailbox: boolean;
  /** DEV_CLOCK: the clock route answers (else 404). */
  clock: DevClock | null;
  advanceChains?: (seconds: number) => Promise<void>;
}

/** The dev routes' own app (not listening): tests inject into it, `startDevServer` binds it to loopback. */
export function buildDevApp(options: DevServerOptions): FastifyInstance {
  const app = Fastify({ logger: false, bodyLimit: 16 * 1024 });
  app.setValidatorCompiler(TypeBoxValidatorCompiler);
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  typed.register(devMailboxRoutes, { db: options.db, enabled: options.devMailbox });
  typed.register(devClockRoutes, { clock: options.clock, advanceChains: options.advanceChains ?? (async () => {}) });
  return app;
}

export async function startDevServer(options: DevServerOptions & { port: number }) {
  const app = buildDevApp(options);
  await app.listen({ host: DEV_HOST, port: options.port });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  return { url: `http://${DEV_HOST}:${port}`, close: () => app.close() };
}
