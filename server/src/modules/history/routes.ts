import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '../../errors/schema.ts';
import { currentUser, requireUser } from '../../http/authenticate.ts';
import { HistoryPage, HistoryQuery } from './schemas.ts';
import type { HistoryService } from './service.ts';

export const historyRoutes: FastifyPluginAsyncTypebox<{ service: HistoryService }> = async (app, { service }) => {
  app.get(
    '/wallet/history',
    {
      config: { replicaRead: true },
      preValidation: requireUser,
      schema: {
        tags: ['wallet'],
        summary: 'Deposits, withdrawals and sends in one list, newest first, cursor-paginated (limit <= 50)',
        description:
          'Filters: type, coin, from, to (YYYY-MM-DD whole UTC days or ISO date-times). from after to: DATE_RANGE_INVALID.',
        querystring: HistoryQuery,
        response: { 200: HistoryPage, ...errorResponses(400, 401) },
      },
    },
    async (request) => service.page(currentUser(request).userId, request.query),
  );
};
