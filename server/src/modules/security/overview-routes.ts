import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '../../errors/schema.ts';
import { currentUser, requireUser } from '../../http/authenticate.ts';
import type { AuthModule } from '../auth/auth-module.ts';
import { securityLocks, securityOverview } from './overview.ts';
import { SecurityLocks, SecurityOverview } from './overview-schemas.ts';

const tags = ['security'];

/** /api/me/security/overview and /locks: read-only views built from the existing repositories (issue 31). */
export const securityOverviewRoutes: FastifyPluginAsyncTypebox<{ auth: AuthModule }> = async (app, { auth }) => {
  app.get(
    '/me/security/overview',
    {
      preValidation: requireUser,
      schema: {
        tags,
        summary: 'Security at a glance: factors, allowlist, locks on outflows with their end, last sign-in, next steps',
        response: { 200: SecurityOverview, ...errorResponses(401) },
      },
    },
    async (request) => securityOverview(auth.db, auth.factors, currentUser(request).userId, auth.now()),
  );
  app.get(
    '/me/security/locks',
    {
      preValidation: requireUser,
      schema: {
        tags,
        summary: 'What keeps coins in the account now (hold after a security change, freeze, reorg), until when',
        response: { 200: SecurityLocks, ...errorResponses(401) },
      },
    },
    async (request) => ({ locks: await securityLocks(auth.db, currentUser(request).userId, auth.now()) }),
  );
};
