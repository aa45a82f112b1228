import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '../../errors/schema.ts';
import { currentUser, requireUser } from '../../http/authenticate.ts';
import type { AccountsService } from '../auth/accounts-service.ts';
import { clientOf } from '../auth/client.ts';
import { emailCodeRoute } from './email-code-routes.ts';
import { CreateWithdrawalBody, IdParams, Withdrawal } from './schemas.ts';
import type { WithdrawalsService } from './service.ts';

export interface WithdrawalRoutesOptions {
  service: WithdrawalsService;
  accounts: AccountsService;
}

export const withdrawalRoutes: FastifyPluginAsyncTypebox<WithdrawalRoutesOptions> = async (app, options) => {
  const { service, accounts } = options;

  await app.register(emailCodeRoute, {
    accounts,
    url: '/wallet/withdrawals/email-code',
    purpose: 'withdraw',
    summary: 'E-mail the signed-in user a `withdraw` code (for a withdrawal)',
  });

  app.post(
    '/wallet/withdrawals',
    {
      preValidation: requireUser,
      schema: {
        tags: ['wallet'],
        summary: 'Withdraw to an external address: the amount is locked and the order enters review',
        description:
          'Errors: ADDRESS_INVALID, AMOUNT_BELOW_MINIMUM, AMOUNT_ABOVE_MAXIMUM, AMOUNT_EXCEEDS_AVAILABLE, WITHDRAW_DISABLED, ' +
          'WITHDRAW_FROZEN, WRONG_FUND_PASSWORD, FUND_PASSWORD_LOCKED, WRONG_VERIFICATION_CODE, VERIFICATION_CODE_EXPIRED, IDEMPOTENCY_KEY_REUSED. ' +
          'A retry with the same idempotencyKey returns the same withdrawal.',
        body: CreateWithdrawalBody,
        response: { 201: Withdrawal, ...errorResponses(400, 401, 403, 409, 423) },
      },
    },
    async (request, reply) => {
      const withdrawal = await service.create(await clientOf(request), currentUser(request).userId, request.body);
      return reply.code(201).send(withdrawal);
    },
  );

  app.get(
    '/wallet/withdrawals/:id',
    {
      preValidation: requireUser,
      schema: {
        tags: ['wallet'],
        summary: "One of the signed-in user's withdrawals",
        params: IdParams,
        response: { 200: Withdrawal, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => service.get(currentUser(request).userId, request.params.id),
  );
};
