import pino, { type Logger } from 'pino';
import type { Config } from './config.ts';

/** JSON logs; human-readable (pino-pretty, a dev dependency) only when stdout is a terminal. */
export function createLogger(config: Pick<Config, 'logLevel'>, stream: NodeJS.WriteStream = process.stdout): Logger {
  const options = {
    level: config.logLevel,
    redact: ['req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]'],
  };
  if (stream.isTTY && canResolve('pino-pretty')) {
    return pino({
      ...options,
      transport: { target: 'pino-pretty', options: { translateTime: 'HH:MM:ss.l', ignore: 'pid,hostname' } },
    });
  }
  return pino(options, stream);
}

function canResolve(specifier: string): boolean {
  try {
    import.meta.resolve(specifier);
    return true;
  } catch {
    return false;
  }
}
