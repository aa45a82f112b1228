import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '../../errors/schema.ts';
import { currentUser, requireUser } from '../../http/authenticate.ts';
import type { AccountsService } from '../auth/accounts-service.ts';
import { clientOf } from '../auth/client.ts';
import { emailCodeRoute } from '../withdrawals/email-code-routes.ts';
import { IdParams } from '../withdrawals/schemas.ts';
import { CreateSendBody, RecipientCheck, RecipientQuery, Send } from './schemas.ts';
import type { SendsService } from './service.ts';

export const sendRoutes: FastifyPluginAsyncTypebox<{ service: SendsService; accounts: AccountsService }> = async (
  app,
  { service, accounts },
) => {
  app.post(
    '/wallet/sends/recipient',
    {
      preValidation: requireUser,
      schema: {
        tags: ['wallet'],
        summary: 'Check a transfer recipient while the form is filled, before any code is sent',
        description: 'Errors: RECIPIENT_NOT_FOUND, SEND_TO_SELF, ADDRESS_INVALID.',
        body: RecipientQuery,
        response: { 200: RecipientCheck, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => service.checkRecipient(currentUser(request).userId, request.body),
  );

  await app.register(emailCodeRoute, {
    accounts,
    url: '/wallet/sends/email-code',
    purpose: 'transfer',
    summary: 'E-mail the signed-in user a `transfer` code (for a transfer to another user)',
  });

  app.post(
    '/wallet/sends',
    {
      preValidation: requireUser,
      schema: {
        tags: ['wallet'],
        summary: 'Send to another user (by e-mail or deposit address): instant, no fee',
        description:
          'Verified like a withdrawal (fund password when set) with a `transfer` e-mail code. Errors: RECIPIENT_NOT_FOUND, ' +
          'SEND_TO_SELF, ADDRESS_INVALID, AMOUNT_EXCEEDS_AVAILABLE, WRONG_FUND_PASSWORD, WRONG_VERIFICATION_CODE, IDEMPOTENCY_KEY_REUSED.',
        body: CreateSendBody,
        response: { 201: Send, ...errorResponses(400, 401, 403, 404, 409, 423, 503) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await service.create(await clientOf(request), currentUser(request).userId, request.body)),
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
