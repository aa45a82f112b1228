import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { errorResponses } from '../../errors/schema.ts';
import { NoContent } from '../auth/schemas.ts';
import type { Actor, OperatorAccounts } from './accounts-service.ts';
import { currentOperator, type operatorGuard } from './guard.ts';
import { operatorSecurity } from './roles.ts';
import {
  EnrolmentIssued,
  OperatorAddBody,
  OperatorIdParams,
  OperatorList,
  RolesBody,
  SessionsEnded,
} from './schemas.ts';

const ADMIN = operatorSecurity('admin');
const UserIdParams = Type.Object({ id: Type.String({ format: 'uuid' }) });

/**
 * /api/ops/operators…: the admin's Operators page (list, add with an enrolment link, roles, disable,
 * end sessions) and ending a user's sessions (ASVS 7.4.5). The rules are in accounts-service.ts.
 */
export const operatorAdminRoutes: FastifyPluginAsyncTypebox<{
  accounts: OperatorAccounts;
  requireOperator: ReturnType<typeof operatorGuard>;
}> = async (app, { accounts, requireOperator }) => {
  const actor = (request: FastifyRequest): Actor => {
    const operator = currentOperator(request);
    return { kind: 'operator', operatorId: operator.operatorId, name: operator.name, ip: request.ip };
  };
  const schema = <T extends object>(summary: string, rest: T) => ({ security: ADMIN, tags: ['ops'], summary, ...rest });

  app.get(
    '/ops/operators',
    {
      preValidation: requireOperator,
      schema: schema('Every operator, their roles and live sessions', {
        response: { 200: OperatorList, ...errorResponses(401, 403) },
      }),
    },
    async () => ({
      items: (await accounts.list()).map((o) => ({
        ...o,
        createdAt: o.createdAt.toISOString(),
        disabledAt: o.disabledAt?.toISOString() ?? null,
      })),
    }),
  );

  app.post(
    '/ops/operators',
    {
      preValidation: requireOperator,
      schema: schema('Adds an operator; answers the one-time enrolment token', {
        description: 'finance is granted from the ops CLI only (FORBIDDEN here); admin and finance never together.',
        body: OperatorAddBody,
        response: { 201: EnrolmentIssued, ...errorResponses(400, 401, 403, 409) },
      }),
    },
    async (request, reply) => {
      const added = await accounts.add(actor(request), request.body.name, request.body.roles);
      return reply.code(201).send({ id: added.id, enrolmentToken: added.token });
    },
  );

  app.put(
    '/ops/operators/:id/roles',
    {
      preValidation: requireOperator,
      schema: schema("Sets another operator's roles (never your own)", {
        params: OperatorIdParams,
        body: RolesBody,
        response: { 204: NoContent, ...errorResponses(400, 401, 403, 404) },
      }),
    },
    async (request, reply) => {
      await accounts.setRoles(actor(request), request.params.id, request.body.roles);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/ops/operators/:id/disable',
    {
      preValidation: requireOperator,
      schema: schema('Disables another operator and ends their sessions', {
        params: OperatorIdParams,
        response: { 204: NoContent, ...errorResponses(400, 401, 403, 404) },
      }),
    },
    async (request, reply) => {
      await accounts.disable(actor(request), request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/ops/operators/:id/enrolment',
    {
      preValidation: requireOperator,
      schema: schema("A new enrolment link: voids the operator's password and app, ends their sessions", {
        params: OperatorIdParams,
        response: { 200: EnrolmentIssued, ...errorResponses(400, 401, 403, 404, 409) },
      }),
    },
    async (request) => {
      const issued = await accounts.reenrol(actor(request), { id: request.params.id });
      return { id: issued.id, enrolmentToken: issued.token };
    },
  );

  app.post(
    '/ops/operators/:id/sessions/end',
    {
      preValidation: requireOperator,
      schema: schema("Ends an operator's sessions", {
        params: OperatorIdParams,
        response: { 200: SessionsEnded, ...errorResponses(400, 401, 403, 404) },
      }),
    },
    async (request) => ({ ended: await accounts.endOperatorSessions(actor(request), request.params.id) }),
  );

  app.post(
    '/ops/users/:id/sessions/end',
    {
      preValidation: requireOperator,
      schema: schema('Ends every session of a user (they sign in again)', {
        params: UserIdParams,
        response: { 200: SessionsEnded, ...errorResponses(400, 401, 403, 404) },
      }),
    },
    async (request) => ({ ended: await accounts.endUserSessions(actor(request), request.params.id) }),
  );
};
