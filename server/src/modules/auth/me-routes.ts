import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '../../errors/schema.ts';
import { currentUser, requireUser, resolveUser } from '../../http/authenticate.ts';
import type { AccountsService } from './accounts-service.ts';
import { clientOf, clientWithDevice } from './client.ts';
import type { FundPasswordService } from './fund-password-service.ts';
import {
  ChangePasswordBody,
  meRef,
  NoContent,
  RevokedCount,
  SessionIdParams,
  SessionList,
  SessionUser,
  SetFundPasswordBody,
  VerifyFundPasswordBody,
} from './schemas.ts';
import type { Sessions } from './sessions.ts';
import type { SessionsService } from './sessions-service.ts';

export interface MeRoutesOptions {
  accounts: AccountsService;
  fundPassword: FundPasswordService;
  sessionsService: SessionsService;
  sessions: Sessions;
}

/** /api/me/*: the signed-in user's profile, password, fund password and sessions. */
export const meRoutes: FastifyPluginAsyncTypebox<MeRoutesOptions> = async (app, options) => {
  const { accounts, fundPassword, sessionsService, sessions } = options;

  app.get(
    '/me',
    {
      preValidation: requireUser,
      schema: { tags: ['me'], summary: 'The signed-in user', response: { 200: meRef, ...errorResponses(401) } },
    },
    async (request) => accounts.me(currentUser(request).userId),
  );

  // The landing page asks who is there without a 401: a visitor is the normal answer, not an error.
  app.get(
    '/session',
    {
      preValidation: resolveUser,
      schema: {
        tags: ['me'],
        summary: 'The signed-in user, or null for a visitor (never 401)',
        response: { 200: SessionUser, ...errorResponses() },
      },
    },
    async (request) => ({ user: request.user === null ? null : await accounts.me(request.user.userId) }),
  );

  app.post(
    '/me/password',
    {
      preValidation: requireUser,
      schema: {
        tags: ['me'],
        summary: 'Change the password; ends the other sessions unless endOtherSessions is false',
        description:
          'REAUTH_REQUIRED unless the password (and the second factor, when on) was proved within 5 minutes ' +
          '(POST /api/me/security/reauth; a sign-in counts). Starts the 24 h outflow hold. Ending the other ' +
          'sessions forgets the other browsers too (their next sign-in asks for the e-mailed confirmation).',
        body: ChangePasswordBody,
        response: { 204: NoContent, ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) => {
      const client = await clientWithDevice(request, sessions.isSecure(request));
      await accounts.changePassword(client, currentUser(request).userId, request.body);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/me/fund-password',
    {
      preValidation: requireUser,
      schema: {
        tags: ['me'],
        summary: 'Set or change the 6-digit fund password (needs a fund_password e-mail code)',
        body: SetFundPasswordBody,
        response: { 204: NoContent, ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) => {
      await fundPassword.set(await clientOf(request), currentUser(request).userId, request.body);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/me/fund-password/verify',
    {
      preValidation: requireUser,
      schema: {
        tags: ['me'],
        summary: 'Check the fund password (before a withdrawal)',
        description:
          'WRONG_FUND_PASSWORD carries details.attemptsLeft; the 5th wrong try within an hour locks it for an hour (FUND_PASSWORD_LOCKED, details.retryAfterSeconds).',
        body: VerifyFundPasswordBody,
        response: { 204: NoContent, ...errorResponses(400, 401, 403, 409, 423) },
      },
    },
    async (request, reply) => {
      await fundPassword.verify(await clientOf(request), currentUser(request).userId, request.body.fundPassword);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/me/sessions',
    {
      preValidation: requireUser,
      schema: {
        tags: ['me'],
        summary: 'Live sessions of the signed-in user',
        response: { 200: SessionList, ...errorResponses(401) },
      },
    },
    async (request) => ({ sessions: await sessionsService.list(await clientOf(request), currentUser(request).userId) }),
  );

  app.post(
    '/me/sessions/revoke-others',
    {
      preValidation: requireUser,
      schema: {
        tags: ['me'],
        summary: 'End every other session',
        description: 'The other browsers are forgotten too: their next sign-in asks for the e-mailed confirmation.',
        response: { 200: RevokedCount, ...errorResponses(401, 403) },
      },
    },
    async (request) => ({
      revoked: await sessionsService.revokeOthers(
        await clientWithDevice(request, sessions.isSecure(request)),
        currentUser(request).userId,
      ),
    }),
  );

  app.delete(
    '/me/sessions/:id',
    {
      preValidation: requireUser,
      schema: {
        tags: ['me'],
        summary: 'End one session',
        params: SessionIdParams,
        response: { 204: NoContent, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const own = await sessionsService.revoke(await clientOf(request), currentUser(request).userId, request.params.id);
      if (own) sessions.clearCookie(request, reply);
      return reply.code(204).send(null);
    },
  );
};
