import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { UnauthenticatedError } from '../../errors/app-error.ts';
import { errorResponses } from '../../errors/schema.ts';
import { currentUser, requireUser } from '../../http/authenticate.ts';
import type { AuthModule } from '../auth/auth-module.ts';
import { securityLocks, securityOverview } from './overview.ts';
import { FactorKinds, SecurityLocks, SecurityOverview } from './overview-schemas.ts';

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
  app.get(
    '/auth/login/factor/kinds',
    {
      schema: {
        tags: ['auth'],
        summary: 'Which second factors a sign-in waiting for one can use (after the password answered 202)',
        description:
          'Needs the cookie of a sign-in that answered 202 (within 5 minutes): UNAUTHENTICATED otherwise. ' +
          'Lets the screen ask a passkey-only account for its passkey or a recovery code, not an app code.',
        response: { 200: FactorKinds, ...errorResponses(401) },
      },
    },
    async (request) => {
      const pending = await auth.sessions.pendingOf(request);
      if (!pending) throw new UnauthenticatedError('No sign-in waits for a second factor; sign in again');
      const status = await auth.factors.status(pending.user_id);
      return { totp: status.totp, passkey: status.passkeys > 0, recoveryCode: status.recoveryCodesLeft > 0 };
    },
  );
};
