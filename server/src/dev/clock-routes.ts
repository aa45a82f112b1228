import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { isLoopbackHost } from '../config-checks.ts';
import { NotFoundError } from '../errors/app-error.ts';
import type { DevClock } from './clock.ts';

/**
 * POST /dev/clock { advanceSeconds }: moves the development clock (and the local chains' time, so
 * check-ins land on the same day the server thinks it is) forward. Only with DEV_CLOCK, only from
 * loopback; hidden from the API document.
 */
export const devClockRoutes: FastifyPluginAsyncTypebox<{
  clock: DevClock | null;
  /** Moves the local chains' time by the same seconds (anvil evm_increaseTime + a block). */
  advanceChains: (seconds: number) => Promise<void>;
}> = async (app, { clock, advanceChains }) => {
  app.post(
    '/dev/clock',
    {
      schema: {
        hide: true,
        body: Type.Object(
          { advanceSeconds: Type.Integer({ minimum: 1, maximum: 366 * 86_400 }) },
          { additionalProperties: false },
        ),
      },
    },
    async (request) => {
      if (!clock || !isLoopbackHost(request.ip.replace(/^::ffff:/, ''))) throw new NotFoundError();
      const offsetMs = await clock.advance(request.body.advanceSeconds * 1000);
      await advanceChains(request.body.advanceSeconds);
      return { now: clock.now().toISOString(), offsetMs };
    },
  );

  // Where the clock stands: e2e computes operators' authenticator codes for the server's time.
  app.get('/dev/clock', { schema: { hide: true } }, async (request) => {
    if (!clock || !isLoopbackHost(request.ip.replace(/^::ffff:/, ''))) throw new NotFoundError();
    return { now: clock.now().toISOString(), offsetMs: clock.offsetMs() };
  });
};
