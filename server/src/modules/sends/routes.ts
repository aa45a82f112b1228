import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '../../errors/schema.ts';
import { currentUser, requireUser } from '../../http/authenticate.ts';
import { IdParams } from '../withdrawals/schemas.ts';
import { CreateSendBody, Send } from './schemas.ts';
import type { SendsService } from './service.ts';

export const sendRoutes: FastifyPluginAsyncTypebox<{ service: SendsService }> = async (app, { service }) => {
  app.post(
    '/wallet/sends',
    {
      preValidation: requireUser,
      schema: {
        tags: ['wallet'],
        summary: 'Send to another user (by e-mail or deposit address): instant, no fee',
        description:
          'Same verification as a withdrawal (fund password when set, `withdraw` e-mail code). Errors: RECIPIENT_NOT_FOUND, ' +
          'SEND_TO_SELF, ADDRESS_INVALID, AMOUNT_EXCEEDS_AVAILABLE, WRONG_FUND_PASSWORD, WRONG_VERIFICATION_CODE, IDEMPOTENCY_KEY_REUSED.',
        body: CreateSendBody,
        response: { 201: Send, ...errorResponses(400, 401, 403, 404, 409, 423) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await service.create(request, currentUser(request).userId, request.body)),
  );

  app.get(
    '/wallet/sends/:id',
    {
      preValidation: requireUser,
      schema: {
        tags: ['wallet'],
        summary: 'A send the signed-in user made or received',
        params: IdParams,
        response: { 200: Send, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => service.get(currentUser(request).userId, request.params.id),
  );
};
