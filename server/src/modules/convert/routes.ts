import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '../../errors/schema.ts';
import { currentUser, requireUser } from '../../http/authenticate.ts';
import { AcceptResult, ConversionRef, HistoryPage, HistoryQuery, IdParams, QuoteRef, QuoteRequest } from './schemas.ts';
import type { ConvertService } from './service.ts';

export interface ConvertRoutesOptions {
  service: ConvertService;
}

export const convertRoutes: FastifyPluginAsyncTypebox<ConvertRoutesOptions> = async (app, { service }) => {
  app.post(
    '/convert/quotes',
    {
      preValidation: requireUser,
      schema: {
        tags: ['convert'],
        summary: 'Price a conversion: rate, fee, amount received, limits and expiry (about 10 s)',
        body: QuoteRequest,
        response: { 200: QuoteRef, ...errorResponses(400, 401, 403, 503) },
      },
    },
    async (request) => {
      const { from, to, amountMinor } = request.body;
      return service.quote(currentUser(request).userId, { from, to, amountMinor: BigInt(amountMinor) });
    },
  );

  app.post(
    '/convert/quotes/:id/accept',
    {
      preValidation: requireUser,
      schema: {
        tags: ['convert'],
        summary:
          'Accept a quote: converts once (a repeated accept answers the same conversion); an expired quote answers a new quote instead',
        params: IdParams,
        response: { 200: AcceptResult, ...errorResponses(400, 401, 403, 404, 409, 503) },
      },
    },
    async (request) => service.accept(currentUser(request).userId, request.params.id),
  );

  app.get(
    '/convert/conversions/:id',
    {
      preValidation: requireUser,
      schema: {
        tags: ['convert'],
        summary: 'One conversion of the signed-in user',
        params: IdParams,
        response: { 200: ConversionRef, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => service.conversion(currentUser(request).userId, request.params.id),
  );

  app.get(
    '/convert/history',
    {
      preValidation: requireUser,
      schema: {
        tags: ['convert'],
        summary: "The signed-in user's conversions, newest first, cursor-paginated",
        querystring: HistoryQuery,
        response: { 200: HistoryPage, ...errorResponses(400, 401) },
      },
    },
    async (request) => service.history(currentUser(request).userId, request.query),
  );
};
