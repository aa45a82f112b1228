import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { errorResponses } from '../../errors/schema.ts';
import { resolveUser } from '../../http/authenticate.ts';
import { IdParams } from '../notices/schemas.ts';
import { currentOperator, type operatorGuard } from '../operators/guard.ts';
import { operatorSecurity } from '../operators/roles.ts';
import { streamedBody } from '../uploads/routes.ts';
import { MultipartFile, Upload } from '../uploads/schemas.ts';
import type { UploadsService } from '../uploads/service.ts';
import { AnswerBody, LeaveMessageBody, LeftMessage, OpsMessagesQuery, OpsSupportMessage } from './schemas.ts';
import type { SupportService } from './service.ts';
import { supportUploader } from './visitor.ts';

/** POST /api/support/messages (visitors too) and the operators' queue under /api/ops/support. */
export const supportRoutes: FastifyPluginAsyncTypebox<{
  service: SupportService;
  uploads: UploadsService;
  requireOperator: ReturnType<typeof operatorGuard>;
}> = async (app, { service, uploads, requireOperator }) => {
  app.post(
    '/support/uploads',
    {
      validatorCompiler: streamedBody,
      schema: {
        tags: ['support'],
        summary: 'A picture for a left message (visitors too: they own it through a cookie of their own)',
        description:
          'multipart/form-data, one part named file: jpg, png, gif or svg up to 5 MB. 20 an hour per IP for visitors.',
        consumes: ['multipart/form-data'],
        body: MultipartFile,
        response: { 201: Upload, ...errorResponses(400, 403, 413, 415) },
      },
    },
    async (request, reply) => {
      await resolveUser(request);
      const uploader = supportUploader(request, reply) as NonNullable<ReturnType<typeof supportUploader>>;
      return reply.code(201).send(await uploads.accept(request, uploader, 'message'));
    },
  );

  app.post(
    '/support/messages',
    {
      schema: {
        tags: ['support'],
        summary: 'Leave a message for support: a phone (with its country) or an e-mail, and the text',
        description:
          'Phone numbers are checked for their country (libphonenumber). 5 an hour per IP: SUPPORT_MESSAGE_RATE_LIMITED.',
        body: LeaveMessageBody,
        response: { 201: LeftMessage, ...errorResponses(400, 403) },
      },
    },
    async (request, reply) => {
      await resolveUser(request);
      const client = { ip: request.ip, userId: request.user?.userId ?? null, uploader: supportUploader(request, null) };
      const left = await service.leave(client, request.body);
      return reply.code(201).send(left);
    },
  );

  app.get(
    '/ops/support/messages',
    {
      preValidation: requireOperator,
      schema: {
        security: operatorSecurity('support'),
        tags: ['ops'],
        summary: 'Left messages: open ones oldest first, or answered ones newest first',
        querystring: OpsMessagesQuery,
        response: { 200: Type.Object({ items: Type.Array(OpsSupportMessage) }), ...errorResponses(400, 401) },
      },
    },
    async (request) => ({ items: await service.queue(request.query.state ?? 'open') }),
  );

  app.post(
    '/ops/support/messages/:id/answer',
    {
      preValidation: requireOperator,
      schema: {
        security: operatorSecurity('support'),
        tags: ['ops'],
        summary:
          'Answer a left message with text and pictures (e-mailed with the pictures attached; a notice for a signed-in writer)',
        params: IdParams,
        body: AnswerBody,
        response: { 200: OpsSupportMessage, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) =>
      service.answer(
        request.params.id,
        request.body.answer,
        currentOperator(request).operatorId,
        request.body.uploadIds ?? [],
      ),
  );
};
