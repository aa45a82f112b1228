import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { buildApp } from '../app.ts';
import type { Database } from '../db/schema.ts';
import { advanceAnvil } from '../dev/clock.ts';
import { devPortFromEnv, startDevServer } from '../dev/dev-server.ts';
import { startConsoleListener } from '../http/console-listener.ts';
import type { Services } from './services.ts';
import type { Settings } from './settings.ts';
import type { Closers } from './shutdown.ts';

/**
 * The listen step of main.ts: the app port, then the operator console's and the dev routes' own listeners.
 */
export async function listen(
  settings: Settings,
  deps: { app: ReturnType<typeof buildApp>; db: Kysely<Database>; services: Services },
  logger: Logger,
  closers: Closers,
) {
  const { config, consoleConfig } = settings;
  const { app, db } = deps;
  const { devClock, chain, localNetworks } = deps.services;
  // app.close() stops accepting connections and waits for in-flight requests.
  closers.push({ name: 'HTTP server', close: () => app.close() });
  await app.listen({ host: config.host, port: config.port });
  // The operator console and /api/ops: on their own listener and origin only (http/console-surface.ts).
  const consoleListener = consoleConfig.listener ? await startConsoleListener(app, consoleConfig.listener) : null;
  if (consoleListener) {
    closers.push({ name: 'operator console listener', close: () => consoleListener.close() });
    logger.info({ url: consoleListener.url, origin: consoleConfig.origin }, 'operator console listening');
  }
  // The dev mailbox and clock: on their own listener bound to 127.0.0.1, never on the app port.
  const devPort = devPortFromEnv(process.env);
  const devServer =
    (config.devMailbox || devClock) && devPort !== null
      ? await startDevServer({
          db,
          devMailbox: config.devMailbox,
          clock: devClock,
          advanceChains: async (seconds: number) => {
            const chains = Object.values(chain.evmChains()).filter((c) => c && localNetworks.has(c.network));
            await Promise.all(chains.map((c) => c && advanceAnvil(c.rpcUrl, seconds)));
          },
          port: devPort,
        })
      : null;
  if (devServer) {
    closers.push({ name: 'dev listener', close: () => devServer.close() });
    logger.info({ url: devServer.url }, 'development routes (mailbox, clock) listening on loopback');
  }
  return { consoleListener, devServer };
}

/** The last step of main.ts: says where the server is, in the log and on stdout. */
export function announceReady(settings: Settings, listeners: Awaited<ReturnType<typeof listen>>, logger: Logger): void {
  const { config, consoleConfig } = settings;
  const { consoleListener, devServer } = listeners;
  const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${config.port}`;
  logger.info({ url, startupMs: Math.round(performance.now()) }, `Server ready at ${url}`);
  // One plain line for the person who typed `npm start`, whatever the log level and format.
  const mailbox =
    config.devMailbox && !config.smtpUrl && devServer ? ` (dev mailbox: ${devServer.url}/dev/mailbox)` : '';
  process.stdout.write(`CW Wallet is running at ${url}${mailbox}\n`);
  if (consoleListener) process.stdout.write(`Operator console: ${consoleConfig.origin}/ops/\n`);
}
