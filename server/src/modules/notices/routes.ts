import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '../../errors/schema.ts';
import { currentUser, requireUser, resolveUser } from '../../http/authenticate.ts';
import { NoContent } from '../auth/schemas.ts';
import {
  AnnouncementDetail,
  AnnouncementPage,
  IdParams,
  LangQuery,
  MarkAllReadBody,
  NoticeListQuery,
  SystemNoticePage,
  UnreadCounts,
} from './schemas.ts';
import type { NoticesService } from './service.ts';

/**
 * /api/notices/*: announcements (public: visitors read them too; a signed-in reader's reads are
 * kept) and the signed-in user's system notices, unread counts and "mark all read".
 */
export const noticesRoutes: FastifyPluginAsyncTypebox<{ service: NoticesService }> = async (app, { service }) => {
  app.get(
    '/notices/announcements',
    {
      config: { replicaRead: true },
      schema: {
        tags: ['notices'],
        summary: 'Live announcements, pinned first then newest, in `lang` (falling back to zh-CN), cursor pages',
        querystring: NoticeListQuery,
        response: { 200: AnnouncementPage, ...errorResponses(400) },
      },
    },
    async (request) => {
      await resolveUser(request);
      return service.announcements(request.user?.userId ?? null, request.query);
    },
  );

  app.get(
    '/notices/announcements/:id',
    {
      schema: {
        tags: ['notices'],
        summary: 'One live announcement with its sanitised HTML body; marks it read for a signed-in reader',
        params: IdParams,
        querystring: LangQuery,
        response: { 200: AnnouncementDetail, ...errorResponses(400, 404) },
      },
    },
    async (request) => {
      await resolveUser(request);
      return service.announcement(request.user?.userId ?? null, request.params.id, request.query.lang);
    },
  );

  app.get(
    '/notices/system',
    {
      config: { replicaRead: true },
      preValidation: requireUser,
      schema: {
        tags: ['notices'],
        summary: "The user's system notices (deposits, withdrawals, support replies...), newest first",
        querystring: NoticeListQuery,
        response: { 200: SystemNoticePage, ...errorResponses(400, 401) },
      },
    },
    async (request) => service.system(currentUser(request).userId, request.query),
  );

  app.post(
    '/notices/system/:id/read',
    {
      preValidation: requireUser,
      schema: {
        tags: ['notices'],
        summary: 'Marks one system notice read',
        params: IdParams,
        response: { 204: NoContent, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      await service.readSystem(currentUser(request).userId, request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/notices/read-all',
    {
      preValidation: requireUser,
      schema: {
        tags: ['notices'],
        summary: 'Marks all announcements, all system notices, or both, read',
        body: MarkAllReadBody,
        response: { 204: NoContent, ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) => {
      await service.readAll(currentUser(request).userId, request.body.kind);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/notices/unread',
    {
      config: { replicaRead: true },
      schema: {
        tags: ['notices'],
        summary: 'Unread counts for the mail tab badge (zeros for a visitor)',
        response: { 200: UnreadCounts, ...errorResponses() },
      },
    },
    async (request) => {
      await resolveUser(request);
      return service.unread(request.user?.userId ?? null);
    },
  );
};
