import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { errorResponses } from '../../errors/schema.ts';
import { NoContent } from '../auth/schemas.ts';
import { currentOperator, operatorGuard } from './guard.ts';
import { OperatorSession, OperatorSignInBody } from './schemas.ts';
import { OPERATOR_COOKIE_PATH, type OperatorsService } from './service.ts';

/** /api/ops/session: the operator console's sign-in, its check and sign-out. */
export const operatorSessionRoutes: FastifyPluginAsyncTypebox<{ service: OperatorsService }> = async (
  app,
  { service },
) => {
  const requireOperator = operatorGuard(service);
  const cookie = (secure: boolean) =>
    ({ path: OPERATOR_COOKIE_PATH, httpOnly: true, sameSite: 'strict', secure }) as const;
  const setOperatorCookie = (request: FastifyRequest, reply: FastifyReply, token: string, expires: Date) => {
    const { name, secure } = service.cookieFor(request);
    reply.setCookie(name, token, { ...cookie(secure), expires });
  };

  app.post(
    '/ops/session',
    {
      schema: {
        tags: ['ops'],
        summary: 'Operator sign-in (the ops_sid cookie, sent to /api/ops only)',
        description: 'Throttled like user sign-in: LOGIN_THROTTLED with details.retryAfterSeconds.',
        body: OperatorSignInBody,
        response: { 200: OperatorSession, ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) => {
      const { token, expiresAt, name } = await service.signIn(request.body.name, request.body.password, request.ip);
      setOperatorCookie(request, reply, token, expiresAt);
      return { operator: { name } };
    },
  );

  app.get(
    '/ops/session',
    {
      schema: {
        tags: ['ops'],
        summary: 'The signed-in operator, or null',
        response: { 200: OperatorSession, ...errorResponses() },
      },
    },
    async (request) => {
      const operator = await service.resolve(request);
      return { operator: operator ? { name: operator.name } : null };
    },
  );

  app.delete(
    '/ops/session',
    {
      preValidation: requireOperator,
      schema: {
        tags: ['ops'],
        summary: 'Operator sign-out',
        response: { 204: NoContent, ...errorResponses(401, 403) },
      },
    },
    async (request, reply) => {
      await service.signOut(currentOperator(request).sessionId);
      const { name, secure } = service.cookieFor(request);
      reply.clearCookie(name, cookie(secure));
      return reply.code(204).send(null);
    },
  );
};
