import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '../../errors/schema.ts';
import { requireUser } from '../../http/authenticate.ts';
import type { AccountsService } from '../auth/accounts-service.ts';
import { clientOf } from '../auth/client.ts';
import { SendCodeResult } from '../auth/schemas.ts';
import { pickMailLanguage } from '../mail/templates.ts';
import { EmailCodeBody } from './schemas.ts';

export interface EmailCodeRouteOptions {
  accounts: AccountsService;
  url: string;
  /** What the e-mail says the code is for: a withdrawal or a transfer to another user. */
  purpose: 'withdraw' | 'transfer';
  summary: string;
}

/** POST <url>: e-mail the signed-in user a code for one wallet action, in their language. */
export const emailCodeRoute: FastifyPluginAsyncTypebox<EmailCodeRouteOptions> = async (app, options) => {
  app.post(
    options.url,
    {
      preValidation: requireUser,
      schema: {
        tags: ['wallet'],
        summary: options.summary,
        body: EmailCodeBody,
        response: { 202: SendCodeResult, ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request, reply) => {
      const language = pickMailLanguage(request.body.language, request.headers['accept-language']);
      await options.accounts.sendCode(await clientOf(request), { purpose: options.purpose, language });
      return reply.code(202).send({ resendAfterSeconds: 60, expiresInSeconds: 600 });
    },
  );
};
