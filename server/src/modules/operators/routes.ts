import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { errorResponses } from '../../errors/schema.ts';
import { NoContent } from '../auth/schemas.ts';
import type { OperatorEnrolment } from './enrolment.ts';
import { currentOperator, operatorGuard } from './guard.ts';
import { ANY_OPERATOR } from './roles.ts';
import {
  EnrolmentFinishBody,
  EnrolmentStartBody,
  EnrolmentStarted,
  OperatorSession,
  OperatorSignInBody,
} from './schemas.ts';
import { OPERATOR_COOKIE_PATH, type OperatorsService, SECURE_OPERATOR_COOKIE_PATH } from './service.ts';

/** /api/ops/session and /api/ops/enrolment: the operator console's sign-in, first set-up, check and sign-out. */
export const operatorSessionRoutes: FastifyPluginAsyncTypebox<{
  service: OperatorsService;
  enrolment: OperatorEnrolment;
}> = async (app, { service, enrolment }) => {
  const requireOperator = operatorGuard(service);
  const cookie = (secure: boolean) =>
    ({
      path: secure ? SECURE_OPERATOR_COOKIE_PATH : OPERATOR_COOKIE_PATH,
      httpOnly: true,
      sameSite: 'strict',
      secure,
    }) as const;
  const setOperatorCookie = (request: FastifyRequest, reply: FastifyReply, token: string, expires: Date) => {
    const { name, secure } = service.cookieFor(request);
    reply.setCookie(name, token, { ...cookie(secure), expires });
  };

  app.post(
    '/ops/session',
    {
      schema: {
        tags: ['ops'],
        summary: 'Operator sign-in: password and authenticator code (the ops_sid cookie, sent to /api/ops only)',
        description:
          'Throttled like user sign-in: LOGIN_THROTTLED with details.retryAfterSeconds. A wrong password and a wrong code fail alike (INVALID_CREDENTIALS); a code works once.',
        body: OperatorSignInBody,
        response: { 200: OperatorSession, ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) => {
      const { token, expiresAt, name } = await service.signIn(request.body, request.ip);
      setOperatorCookie(request, reply, token, expiresAt);
      const operator = await service.resolveToken(token);
      return { operator: { name, roles: operator?.roles ?? [] } };
    },
  );

  app.get(
    '/ops/session',
    {
      schema: {
        tags: ['ops'],
        summary: 'The signed-in operator and their roles, or null',
        response: { 200: OperatorSession, ...errorResponses() },
      },
    },
    async (request) => {
      const operator = await service.resolve(request);
      return { operator: operator ? { name: operator.name, roles: operator.roles } : null };
    },
  );

  app.delete(
    '/ops/session',
    {
      preValidation: requireOperator,
      schema: {
        security: ANY_OPERATOR,
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

  app.post(
    '/ops/enrolment/start',
    {
      schema: {
        tags: ['ops'],
        summary: "First set-up: a new authenticator secret for the enrolment link's operator",
        description: "The token is the one-time link's (#enrol=…); asking again replaces the secret.",
        body: EnrolmentStartBody,
        response: { 200: EnrolmentStarted, ...errorResponses(400, 401) },
      },
    },
    async (request) => enrolment.start(request.body.token),
  );

  app.post(
    '/ops/enrolment/finish',
    {
      schema: {
        tags: ['ops'],
        summary: 'First set-up: the password and the first authenticator code; spends the link and signs in',
        body: EnrolmentFinishBody,
        response: { 200: OperatorSession, ...errorResponses(400, 401, 409) },
      },
    },
    async (request, reply) => {
      const { token, expiresAt } = await enrolment.finish(request.body, request.ip);
      setOperatorCookie(request, reply, token, expiresAt);
      const operator = await service.resolveToken(token);
      return { operator: operator ? { name: operator.name, roles: operator.roles } : null };
    },
  );
};
