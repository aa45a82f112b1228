import closeWithGrace from 'close-with-grace';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';

/** A resource to release on shutdown. */
export type Closer = { name: string; close: () => Promise<unknown> };

/** Resources to release on shutdown, released last-in first-out. */
export type Closers = {
  push: (...closers: Closer[]) => void;
  closeAll: () => Promise<void>;
};

export function createClosers(logger: Logger): Closers {
  const closers: Closer[] = [];
  return {
    push: (...added) => void closers.push(...added),
    async closeAll() {
      for (const { name, close } of closers.splice(0).reverse()) {
        try {
          await close();
        } catch (err) {
          logger.error({ err }, `error while closing ${name}`);
        }
      }
    },
  };
}

/**
 * Shutdown (SIGINT/SIGTERM, or an unhandled error): releases every closer, within config.shutdownTimeoutMs.
 */
export function closeOnSignals(config: Config, logger: Logger, closers: Closers): void {
  closeWithGrace({ delay: config.shutdownTimeoutMs, logger }, async ({ signal, err }) => {
    // scripts/start.ts (our parent under `npm start`) then knows not to forward the same signal again.
    process.send?.({ type: 'shutting-down' });
    if (err) logger.error({ err }, 'shutting down after an unhandled error');
    else logger.info({ signal }, 'shutting down');
    await closers.closeAll();
  });
}
