import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ServiceUnavailableError, UnauthenticatedError } from '../../errors/app-error.ts';
import { errorResponses } from '../../errors/schema.ts';
import { currentUser, requireUser } from '../../http/authenticate.ts';
import { NoContent } from '../auth/schemas.ts';
import { sessionIdOf } from '../auth/sessions.ts';
import { IdParams } from '../notices/schemas.ts';
import { currentOperator, type operatorGuard } from '../operators/guard.ts';
import { type OperatorRole, operatorSecurity } from '../operators/roles.ts';
import type { ChatHub } from './hub.ts';
import {
  ChatHistory,
  ChatMessage,
  EventStream,
  HistoryQuery,
  OpsConversation,
  ReadBody,
  SendChatBody,
  StreamQuery,
} from './schemas.ts';
import type { ChatService } from './service.ts';
import { createStreamRegistry, HEARTBEAT_MS, resumeId, serveStream } from './stream.ts';
import type { StreamSlots } from './stream-slots.ts';

/** Who may watch every chat live: declared on the route and re-checked by the stream as it runs. */
const OPS_STREAM_ROLES: [OperatorRole, ...OperatorRole[]] = ['support'];

/** Presence outlives one missed heartbeat. */
const PRESENCE_MS = HEARTBEAT_MS * 3;

const streamSchema = (tags: string[], summary: string) => ({
  tags,
  summary,
  description: 'Server-sent events: `message` (with its id: reconnect with Last-Event-ID to resume), `typing`, `read`.',
  querystring: StreamQuery,
  produces: ['text/event-stream'],
  response: { 200: EventStream, ...errorResponses(400, 401, 429) },
});

/** Live support chat: the user's side under /api/chat, the operators' under /api/ops/chat(s). */
export const chatRoutes: FastifyPluginAsyncTypebox<{
  service: ChatService;
  hub: ChatHub | null;
  now: () => Date;
  requireOperator: ReturnType<typeof operatorGuard>;
  /** Whether a user session still holds (chat streams end with their session). */
  userSessionLive: (sessionId: string) => Promise<boolean>;
  /** Whether an operator session still holds (and its operator is not disabled). */
  /** With the roles the stream's route declares: re-checked on every batch and heartbeat. */
  operatorSessionLive: (sessionId: string, anyOfRoles: readonly OperatorRole[]) => Promise<boolean>;
  slots: StreamSlots;
  heartbeatMs: number;
}> = async (app, { service, hub, now, requireOperator, userSessionLive, operatorSessionLive, slots, heartbeatMs }) => {
  const registry = createStreamRegistry();
  /** The stream's slot, and what a stream does at each heartbeat and at its end. */
  const slotted = async (holder: string, session: string) => {
    const slot = await slots.take(holder, session);
    return { heartbeatMs, onHeartbeat: () => slots.renew(slot), onClose: () => slots.release(slot) };
  };
  app.addHook('preClose', async () => registry.endAll());
  const needHub = () => {
    if (!hub) throw new ServiceUnavailableError('Live chat needs the database notifications');
    return hub;
  };

  app.get(
    '/chat/messages',
    {
      preValidation: requireUser,
      schema: {
        tags: ['chat'],
        summary: 'Your chat with support, a page at a time (newest page first)',
        querystring: HistoryQuery,
        response: { 200: ChatHistory, ...errorResponses(400, 401) },
      },
    },
    async (request) =>
      service.history(await service.conversationOf(currentUser(request).userId), request.query, 'user'),
  );

  app.post(
    '/chat/messages',
    {
      preValidation: requireUser,
      schema: {
        tags: ['chat'],
        summary: 'Send a message (text and/or one file); sending the same clientId again is not a second message',
        body: SendChatBody,
        response: { 200: ChatMessage, 201: ChatMessage, ...errorResponses(400, 401, 404) },
      },
    },
    async (request, reply) => {
      const sent = await service.send({ userId: currentUser(request).userId }, request.body);
      return reply.code(sent.created ? 201 : 200).send(sent.message);
    },
  );

  app.post(
    '/chat/typing',
    {
      preValidation: requireUser,
      schema: {
        tags: ['chat'],
        summary: 'Tell support you are typing',
        response: { 204: NoContent, ...errorResponses(401) },
      },
    },
    async (request, reply) => {
      await service.typing((await service.conversationOf(currentUser(request).userId)).id, 'user');
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/chat/read',
    {
      preValidation: requireUser,
      schema: {
        tags: ['chat'],
        summary: 'You have read support’s messages up to this id',
        body: ReadBody,
        response: { 204: NoContent, ...errorResponses(400, 401) },
      },
    },
    async (request, reply) => {
      await service.read((await service.conversationOf(currentUser(request).userId)).id, 'user', request.body.upTo);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/chat/events',
    { preValidation: requireUser, schema: streamSchema(['chat'], 'Your chat, live') },
    async (request, reply) => {
      const live = needHub();
      await live.ready();
      const { userId } = currentUser(request);
      const sessionId = sessionIdOf(request);
      if (sessionId === undefined) throw new UnauthenticatedError();
      const conversation = await service.conversationOf(userId);
      const afterId = resumeId(request, request.query.after) ?? (await service.latestId(conversation.id));
      const slot = await slotted(`user:${userId}`, `user:${sessionId}`);
      serveStream(
        request,
        reply,
        {
          ...slot,
          stillLive: () => userSessionLive(sessionId),
          hub: live,
          scope: conversation.id,
          afterId,
          messagesAfter: (after) => service.messagesAfter(conversation.id, after),
          onPresence: (online) =>
            service.setPresence(conversation.id, online ? new Date(now().getTime() + PRESENCE_MS) : null),
        },
        registry,
      );
    },
  );

  app.get(
    '/ops/chats',
    {
      preValidation: requireOperator,
      schema: {
        security: operatorSecurity('support'),
        tags: ['ops'],
        summary: 'Chats by latest activity, with unread counts and presence',
        response: { 200: Type.Object({ items: Type.Array(OpsConversation) }), ...errorResponses(401) },
      },
    },
    async () => ({ items: await service.conversations() }),
  );

  app.get(
    '/ops/chats/:id/messages',
    {
      preValidation: requireOperator,
      schema: {
        security: operatorSecurity('support'),
        tags: ['ops'],
        summary: 'A chat, a page at a time',
        params: IdParams,
        querystring: HistoryQuery,
        response: { 200: ChatHistory, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => service.history(await service.conversation(request.params.id), request.query, 'ops'),
  );

  app.post(
    '/ops/chats/:id/messages',
    {
      preValidation: requireOperator,
      schema: {
        security: operatorSecurity('support'),
        tags: ['ops'],
        summary: 'Answer in a chat (e-mailed too when the user is not connected)',
        params: IdParams,
        body: SendChatBody,
        response: { 200: ChatMessage, 201: ChatMessage, ...errorResponses(400, 401, 404) },
      },
    },
    async (request, reply) => {
      const by = { operatorId: currentOperator(request).operatorId, conversationId: request.params.id };
      const sent = await service.send(by, request.body);
      return reply.code(sent.created ? 201 : 200).send(sent.message);
    },
  );

  app.post(
    '/ops/chats/:id/typing',
    {
      preValidation: requireOperator,
      schema: {
        security: operatorSecurity('support'),
        tags: ['ops'],
        summary: 'Tell the user support is typing',
        params: IdParams,
        response: { 204: NoContent, ...errorResponses(400, 401, 404) },
      },
    },
    async (request, reply) => {
      await service.typing((await service.conversation(request.params.id)).id, 'operator');
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/ops/chats/:id/read',
    {
      preValidation: requireOperator,
      schema: {
        security: operatorSecurity('support'),
        tags: ['ops'],
        summary: 'Support has read the user’s messages up to this id',
        params: IdParams,
        body: ReadBody,
        response: { 204: NoContent, ...errorResponses(400, 401, 404) },
      },
    },
    async (request, reply) => {
      await service.read((await service.conversation(request.params.id)).id, 'operator', request.body.upTo);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/ops/chat/events',
    {
      preValidation: requireOperator,
      schema: { ...streamSchema(['ops'], 'Every chat, live'), security: operatorSecurity(...OPS_STREAM_ROLES) },
    },
    async (request, reply) => {
      const live = needHub();
      await live.ready();
      const { operatorId, sessionId } = currentOperator(request);
      const afterId = resumeId(request, request.query.after) ?? (await service.latestId(null));
      const slot = await slotted(`operator:${operatorId}`, `operator:${sessionId}`);
      serveStream(
        request,
        reply,
        {
          ...slot,
          // The guard checked the roles once, at the start; an admin may take them away mid-stream.
          stillLive: () => operatorSessionLive(sessionId, OPS_STREAM_ROLES),
          hub: live,
          scope: '*',
          afterId,
          messagesAfter: (after) => service.messagesAfter(null, after),
        },
        registry,
      );
    },
  );
};
