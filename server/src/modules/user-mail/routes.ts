import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '../../errors/schema.ts';
import { currentUser, requireUser } from '../../http/authenticate.ts';
import { IdParams } from '../notices/schemas.ts';
import { MailListQuery, SendMailBody, UserMail, UserMailPage } from './schemas.ts';
import type { UserMailService } from './service.ts';

/** /api/mail/messages: the user's own mail (send, records, details, send a failed one again). */
export const userMailRoutes: FastifyPluginAsyncTypebox<{ service: UserMailService }> = async (app, { service }) => {
  app.post(
    '/mail/messages',
    {
      preValidation: requireUser,
      schema: {
        tags: ['mail'],
        summary: 'Send an e-mail from the service with Reply-To the user (up to 5 recipients)',
        description:
          'CR/LF in the subject: VALIDATION_FAILED (rule header). More than MAIL_DAILY_LIMIT in 24 h from the account or from the IP: MAIL_DAILY_LIMIT.',
        body: SendMailBody,
        response: { 201: UserMail, ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await service.send(currentUser(request).userId, request.body, request.ip)),
  );

  app.get(
    '/mail/messages',
    {
      preValidation: requireUser,
      schema: {
        tags: ['mail'],
        summary: "The user's mail records, newest first: queued, sent or failed (with the reason)",
        querystring: MailListQuery,
        response: { 200: UserMailPage, ...errorResponses(400, 401) },
      },
    },
    async (request) => service.list(currentUser(request).userId, request.query),
  );

  app.get(
    '/mail/messages/:id',
    {
      preValidation: requireUser,
      schema: {
        tags: ['mail'],
        summary: 'One mail record',
        params: IdParams,
        response: { 200: UserMail, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => service.get(currentUser(request).userId, request.params.id),
  );

  app.post(
    '/mail/messages/:id/resend',
    {
      preValidation: requireUser,
      schema: {
        tags: ['mail'],
        summary: 'Send a failed mail again (a new record)',
        params: IdParams,
        response: { 201: UserMail, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await service.resend(currentUser(request).userId, request.params.id, request.ip)),
  );
};
