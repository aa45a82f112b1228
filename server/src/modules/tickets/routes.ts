import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { errorResponses } from '../../errors/schema.ts';
import { currentUser, requireUser } from '../../http/authenticate.ts';
import { IdParams } from '../notices/schemas.ts';
import { currentOperator, type operatorGuard } from '../operators/guard.ts';
import { operatorSecurity } from '../operators/roles.ts';
import {
  FollowUpBody,
  NewTicketBody,
  OpsReplyBody,
  OpsTicketQuery,
  TicketDetail,
  TicketListQuery,
  TicketPage,
  TicketSummary,
} from './schemas.ts';
import type { TicketsService } from './service.ts';

/** The support mailbox: a user's tickets under /api/tickets, the operators' queue under /api/ops/tickets. */
export const ticketsRoutes: FastifyPluginAsyncTypebox<{
  service: TicketsService;
  requireOperator: ReturnType<typeof operatorGuard>;
}> = async (app, { service, requireOperator }) => {
  app.post(
    '/tickets',
    {
      preValidation: requireUser,
      schema: {
        tags: ['support'],
        summary: 'Open a support ticket: e-mail, the problem, an optional transaction of yours, up to 5 pictures',
        body: NewTicketBody,
        response: { 201: TicketDetail, ...errorResponses(400, 401, 409) },
      },
    },
    async (request, reply) => reply.code(201).send(await service.open(currentUser(request).userId, request.body)),
  );

  app.get(
    '/tickets',
    {
      preValidation: requireUser,
      schema: {
        tags: ['support'],
        summary: 'Your tickets, newest first',
        querystring: TicketListQuery,
        response: { 200: TicketPage, ...errorResponses(400, 401) },
      },
    },
    async (request) => service.list(currentUser(request).userId, request.query),
  );

  app.get(
    '/tickets/:id',
    {
      preValidation: requireUser,
      schema: {
        tags: ['support'],
        summary: 'One of your tickets with its whole thread',
        params: IdParams,
        response: { 200: TicketDetail, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => service.detail(currentUser(request).userId, request.params.id),
  );

  app.post(
    '/tickets/:id/messages',
    {
      preValidation: requireUser,
      schema: {
        tags: ['support'],
        summary: 'Write again in your ticket (it waits for a reply again)',
        params: IdParams,
        body: FollowUpBody,
        response: { 200: TicketDetail, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => service.followUp(currentUser(request).userId, request.params.id, request.body),
  );

  app.get(
    '/ops/tickets',
    {
      preValidation: requireOperator,
      schema: {
        security: operatorSecurity('support'),
        tags: ['ops'],
        summary: 'Tickets waiting for a reply (longest waiting first) or answered (latest first)',
        querystring: OpsTicketQuery,
        response: { 200: Type.Object({ items: Type.Array(TicketSummary) }), ...errorResponses(400, 401) },
      },
    },
    async (request) => ({ items: await service.queue(request.query.state ?? 'pending_reply') }),
  );

  app.get(
    '/ops/tickets/:id',
    {
      preValidation: requireOperator,
      schema: {
        security: operatorSecurity('support'),
        tags: ['ops'],
        summary: 'A ticket with its thread',
        params: IdParams,
        response: { 200: TicketDetail, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => service.opsDetail(request.params.id),
  );

  app.post(
    '/ops/tickets/:id/messages',
    {
      preValidation: requireOperator,
      schema: {
        security: operatorSecurity('support'),
        tags: ['ops'],
        summary: 'Reply to a ticket (text and pictures): the user gets a system notice and an e-mail',
        params: IdParams,
        body: OpsReplyBody,
        response: { 200: TicketDetail, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => service.reply(currentOperator(request).operatorId, request.params.id, request.body),
  );
};
