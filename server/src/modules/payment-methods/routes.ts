import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '../../errors/schema.ts';
import { currentUser, requireUser } from '../../http/authenticate.ts';
import { clientOf } from '../auth/client.ts';
import { ActiveBody, MethodParams, NewPaymentMethod, PaymentMethod, PaymentMethodList } from './schemas.ts';
import type { PaymentMethodsService } from './service.ts';

/** A user's payout methods for selling: list (masked), add, activate and deactivate. */
export const paymentMethodsRoutes: FastifyPluginAsyncTypebox<{ service: PaymentMethodsService }> = async (
  app,
  { service },
) => {
  const tags = ['payouts'];
  app.get(
    '/payment-methods',
    {
      preValidation: requireUser,
      schema: {
        tags,
        summary: 'Your payout methods, numbers masked',
        response: { 200: PaymentMethodList, ...errorResponses(401) },
      },
    },
    async (request) => service.list(currentUser(request).userId),
  );
  app.post(
    '/payment-methods',
    {
      preValidation: requireUser,
      schema: {
        tags,
        summary:
          'Add an Indian bank account, a PIX key, a UPI id or a chat-app method, with the fund password (400 names each bad field)',
        body: NewPaymentMethod,
        response: { 201: PaymentMethod, ...errorResponses(400, 401, 409, 423, 503) },
      },
    },
    async (request, reply) => reply.code(201).send(await service.add(await clientOf(request), request.body)),
  );
  app.put(
    '/payment-methods/:id/active',
    {
      preValidation: requireUser,
      schema: {
        tags,
        summary: 'Deactivate one of your payout methods, or activate it with the fund password',
        params: MethodParams,
        body: ActiveBody,
        response: { 200: PaymentMethod, ...errorResponses(400, 401, 404, 423, 503) },
      },
    },
    async (request) =>
      service.setActive(await clientOf(request), request.params.id, request.body.active, request.body.fundPassword),
  );
};
