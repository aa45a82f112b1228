import { createServer } from 'node:http';
import { isIP } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { ConfigError } from '../config.ts';
import { consoleOrigin, consoleRequestHandler, DEFAULT_CONSOLE_PORT } from './console-surface.ts';

/**
 * The operator console's listener (issue 38 item 5; console-surface.ts says why it exists).
 *
 * OPS_HOST (127.0.0.1): where it binds; in production nginx's `ops.` server block (or a VPN) reaches it.
 * OPS_PORT (9466; `off`: no console): its port. Several instances on one machine need one each.
 * OPS_ORIGIN: the console's address as operators open it. Default `http://localhost:<OPS_PORT>`, or
 * `http://127.0.0.1:<OPS_PORT>` when the app itself is on localhost: another host name than the app's,
 * since cookies are per host, not per port. Required (https) in production; refused on the app's host.
 */
export interface ConsoleConfig {
  listener: { host: string; port: number } | null;
  origin: string;
}

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

export function consoleConfigFromEnv(
  env: NodeJS.ProcessEnv,
  app: { nodeEnv: string; publicOrigin: string },
): ConsoleConfig {
  const problems: string[] = [];
  const host = env.OPS_HOST?.trim() || '127.0.0.1';
  if (!LOOPBACK.has(host) && isIP(host) === 0) problems.push('OPS_HOST must be an IP address or localhost');
  const portText = env.OPS_PORT?.trim() || String(DEFAULT_CONSOLE_PORT);
  const port = Number(portText);
  if (portText !== 'off' && (!Number.isInteger(port) || port < 1 || port > 65_535)) {
    problems.push('OPS_PORT must be a port (1..65535) or "off"');
  }
  const appHost = new URL(app.publicOrigin).hostname;
  const given = env.OPS_ORIGIN?.trim();
  const origin = given
    ? consoleOrigin(given)
    : `http://${appHost === 'localhost' ? '127.0.0.1' : 'localhost'}:${portText === 'off' ? DEFAULT_CONSOLE_PORT : port}`;
  if (origin === null || (given && given.replace(/\/$/, '') !== origin)) {
    problems.push('OPS_ORIGIN must be an origin: scheme://host[:port], nothing after');
  } else {
    if (new URL(origin).hostname === appHost) {
      problems.push(
        `OPS_ORIGIN must be on another host name than the app (${appHost}): cookies are per host, not port`,
      );
    }
    if (app.nodeEnv === 'production' && portText !== 'off' && (!given || !origin.startsWith('https://'))) {
      problems.push(
        "OPS_ORIGIN must be set to the console's https:// origin in production (e.g. https://ops.example.com)",
      );
    }
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return { listener: portText === 'off' ? null : { host, port }, origin: origin as string };
}

/**
 * Binds the console listener: a second HTTP server whose requests go to the same app (its routes,
 * hooks and services), tagged as the console's. Call after the app is ready (`app.listen` or `app.ready`).
 * Closing stops accepting and ends idle connections; requests in flight (an operator's event stream)
 * end with the app (its onClose ends the streams), after which `close` ends what is left.
 */
export async function startConsoleListener(
  app: FastifyInstance,
  listen: { host: string; port: number },
): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer(consoleRequestHandler(app));
  // The same timeouts as the app port's server.
  server.keepAliveTimeout = app.server.keepAliveTimeout;
  server.requestTimeout = app.server.requestTimeout;
  server.headersTimeout = app.server.headersTimeout;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(listen.port, listen.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : listen.port;
  const shown = listen.host.includes(':') ? `[${listen.host}]` : listen.host;
  return {
    url: `http://${shown}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
        // Streams still open once the app has closed (it ended them) have nothing more to say.
        setTimeout(() => server.closeAllConnections(), 1_000).unref();
      }),
  };
}
