import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '../../errors/schema.ts';
import { currentUser, requireUser } from '../../http/authenticate.ts';
import { clientOf } from '../auth/client.ts';
import { AllowlistBody, AllowlistStatus, EntryParams, TrustBody, TrustResult } from './schemas.ts';
import type { AllowlistService } from './service.ts';

/** /api/me/security/allowlist and the address book's trusted flag (issue 31). */
export const allowlistRoutes: FastifyPluginAsyncTypebox<{ service: AllowlistService }> = async (app, { service }) => {
  app.get(
    '/me/security/allowlist',
    {
      preValidation: requireUser,
      schema: {
        tags: ['security'],
        summary: 'Withdrawal allowlist: on or off, a pending turn-off, and the hold',
        response: { 200: AllowlistStatus, ...errorResponses(401) },
      },
    },
    async (request) => service.status(currentUser(request).userId),
  );
  app.put(
    '/me/security/allowlist',
    {
      preValidation: requireUser,
      schema: {
        tags: ['security'],
        summary: 'Turn the withdrawal allowlist on (at once) or off (after the hold)',
        description:
          'REAUTH_REQUIRED unless the password (and factor) was proved within 5 minutes. With it on, a ' +
          'withdrawal or send to anything but a trusted entry is refused: ADDRESS_NOT_ALLOWLISTED, or ' +
          'ADDRESS_ALLOWLIST_HOLD (details.until, retryAfterSeconds) while the entry waits its hold.',
        body: AllowlistBody,
        response: { 200: AllowlistStatus, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => service.set(await clientOf(request), currentUser(request).userId, request.body.on),
  );
  app.put(
    '/wallet/address-book/:id/trusted',
    {
      preValidation: requireUser,
      schema: {
        tags: ['wallet'],
        summary: 'Mark a saved address trusted for the allowlist (usable after the hold) or not (at once)',
        description:
          'Trusting mails the owner a notice naming the address and the end of its hold, with a freeze link.',
        params: EntryParams,
        body: TrustBody,
        response: { 200: TrustResult, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) =>
      service.setTrusted(await clientOf(request), currentUser(request).userId, request.params.id, request.body.trusted),
  );
};
