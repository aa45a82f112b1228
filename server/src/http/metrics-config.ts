import { isIP } from 'node:net';
import { ConfigError } from '../config.ts';

/**
 * Where Prometheus reads `/metrics` (issue 15: it was public on the app port). By default on its own
 * listener, bound to loopback: METRICS_HOST (127.0.0.1) and METRICS_PORT (9464; `off` for none). The
 * app port serves it only with METRICS_TOKEN set (at least 32 characters), to a request carrying
 * `Authorization: Bearer <token>`, for a scraper that can only reach the app port.
 */
export interface MetricsConfig {
  listener: { host: string; port: number } | null;
  token: string | null;
}

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

export function metricsConfigFromEnv(env: NodeJS.ProcessEnv): MetricsConfig {
  const problems: string[] = [];
  const host = env.METRICS_HOST || '127.0.0.1';
  if (!LOOPBACK.has(host) && isIP(host) === 0) problems.push('METRICS_HOST must be an IP address or localhost');
  const portText = env.METRICS_PORT || '9464';
  const port = Number(portText);
  if (portText !== 'off' && (!Number.isInteger(port) || port < 0 || port > 65535)) {
    problems.push('METRICS_PORT must be a port (0..65535) or "off"');
  }
  const token = env.METRICS_TOKEN || null;
  if (token !== null && token.length < 32) problems.push('METRICS_TOKEN must have at least 32 characters');
  if (problems.length > 0) throw new ConfigError(problems);
  return { listener: portText === 'off' ? null : { host, port }, token };
}
