import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { errorResponses } from '../../errors/schema.ts';
import { NoContent } from '../auth/schemas.ts';
import { currentOperator, type operatorGuard } from '../operators/guard.ts';
import { operatorSecurity } from '../operators/roles.ts';
import { renderMarkdown } from './markdown.ts';
import { AnnouncementInput, BODY_MAX, IdParams, OpsAnnouncement } from './schemas.ts';
import type { NoticesService } from './service.ts';

/** /api/ops/announcements: write (with a preview), publish, list and withdraw. Operators only. */
export const noticesOpsRoutes: FastifyPluginAsyncTypebox<{
  service: NoticesService;
  requireOperator: ReturnType<typeof operatorGuard>;
}> = async (app, { service, requireOperator }) => {
  app.get(
    '/ops/announcements',
    {
      preValidation: requireOperator,
      schema: {
        security: operatorSecurity('support'),
        tags: ['ops'],
        summary: 'Every announcement (scheduled and withdrawn too), newest first',
        response: { 200: Type.Object({ items: Type.Array(OpsAnnouncement) }), ...errorResponses(401) },
      },
    },
    async () => ({ items: await service.all() }),
  );

  app.post(
    '/ops/announcements',
    {
      preValidation: requireOperator,
      schema: {
        security: operatorSecurity('support'),
        tags: ['ops'],
        summary: 'Publish an announcement (zh-CN required; other languages fall back to it)',
        body: AnnouncementInput,
        response: { 201: Type.Object({ id: Type.String({ format: 'uuid' }) }), ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) => {
      const id = await service.publish(request.body, currentOperator(request).operatorId);
      return reply.code(201).send({ id });
    },
  );

  app.post(
    '/ops/announcements/preview',
    {
      preValidation: requireOperator,
      schema: {
        security: operatorSecurity('support'),
        tags: ['ops'],
        summary: 'The sanitised HTML a Markdown body becomes',
        body: Type.Object({ bodyMd: Type.String({ maxLength: BODY_MAX }) }, { additionalProperties: false }),
        response: { 200: Type.Object({ html: Type.String() }), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => ({ html: renderMarkdown(request.body.bodyMd) }),
  );

  app.post(
    '/ops/announcements/:id/withdraw',
    {
      preValidation: requireOperator,
      schema: {
        security: operatorSecurity('support'),
        tags: ['ops'],
        summary: 'Withdraw a published announcement',
        params: IdParams,
        response: { 204: NoContent, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const { operatorId, name } = currentOperator(request);
      await service.withdraw(request.params.id, { operatorId, name });
      return reply.code(204).send(null);
    },
  );
};
