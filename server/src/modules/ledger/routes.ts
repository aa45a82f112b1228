import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '../../errors/schema.ts';
import { currentUser, requireUser } from '../../http/authenticate.ts';
import { Balances } from './schemas.ts';
import type { LedgerService } from './service.ts';

export interface LedgerRoutesOptions {
  service: LedgerService;
}

export const ledgerRoutes: FastifyPluginAsyncTypebox<LedgerRoutesOptions> = async (app, { service }) => {
  app.get(
    '/me/balances',
    {
      preValidation: requireUser,
      schema: {
        tags: ['wallet'],
        summary: "The signed-in user's available and locked balance of every coin, in minor units",
        response: { 200: Balances, ...errorResponses(401) },
      },
    },
    async (request) => service.balances(currentUser(request).userId),
  );
};
