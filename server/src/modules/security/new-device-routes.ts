import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { NotFoundError, UnauthenticatedError } from '../../errors/app-error.ts';
import { errorResponses } from '../../errors/schema.ts';
import type { AuthModule } from '../auth/auth-module.ts';
import { clientOf } from '../auth/client.ts';
import { NoContent, UserResult } from '../auth/schemas.ts';

const tags = ['auth'];

const DeviceStatus = Type.Object(
  {
    state: Type.Union([Type.Literal('pending'), Type.Literal('none')], {
      description:
        'pending: this browser signed in and waits for the e-mail; none: no such sign-in (signed in, or not)',
    }),
    emailMasked: Type.Union([Type.String(), Type.Null()]),
    expiresAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    mailed: Type.Boolean({ description: 'false: the code limits held the first mail back; ask again' }),
  },
  { $id: 'DeviceStatus', additionalProperties: false },
);

const ConfirmBody = Type.Object(
  { code: Type.String({ maxLength: 16, description: 'The 6-digit code of the new-device mail' }) },
  { additionalProperties: false },
);

const LinkBody = Type.Object(
  { token: Type.String({ maxLength: 64, description: 'The token of the approve link in the new-device mail' }) },
  { additionalProperties: false },
);

const noPending = () => new UnauthenticatedError('No sign-in waits for a device confirmation; sign in again');

/**
 * /api/auth/device/*: the only routes a session waiting for its new-device confirmation may use
 * (besides POST /api/auth/logout); every other route answers it DEVICE_CONFIRMATION_REQUIRED.
 * Nothing is kept in process memory: the pending state is in PostgreSQL, so the screen polls
 * GET /api/auth/device on whichever instance, and the link may be opened anywhere.
 */
export const newDeviceRoutes: FastifyPluginAsyncTypebox<{ auth: AuthModule }> = async (app, { auth }) => {
  app.get(
    '/auth/device',
    {
      schema: {
        tags,
        summary: 'Whether this browser’s sign-in waits for the new-device e-mail',
        response: { 200: DeviceStatus, ...errorResponses() },
      },
    },
    async (request) => auth.devices.status(await auth.sessions.devicePendingOf(request)),
  );

  app.post(
    '/auth/device/confirm',
    {
      schema: {
        tags,
        summary: 'Confirm this new device with the e-mailed code; the session becomes usable',
        description:
          'UNAUTHENTICATED when no sign-in waits (expired after 15 minutes, ended, or the account was frozen). ' +
          'WRONG_VERIFICATION_CODE (details.attemptsLeft), VERIFICATION_CODE_EXPIRED (5 wrong tries kill a code). ' +
          'Starts the 24 h hold on withdrawals and sends.',
        body: ConfirmBody,
        response: { 200: UserResult, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => {
      const pending = await auth.sessions.devicePendingOf(request);
      if (!pending) throw noPending();
      await auth.devices.confirmByCode(await clientOf(request), pending, request.body.code.trim());
      return { user: await auth.accounts.me(pending.user_id) };
    },
  );

  app.post(
    '/auth/device/resend',
    {
      schema: {
        tags,
        summary: 'Send the new-device mail again (a new code and link; the old ones stop working)',
        description:
          'CODE_RESEND_TOO_SOON (once a minute) and CODE_RATE_LIMITED (10 an hour) carry details.retryAfterSeconds.',
        response: { 202: NoContent, ...errorResponses(401, 403) },
      },
    },
    async (request, reply) => {
      const pending = await auth.sessions.devicePendingOf(request);
      if (!pending) throw noPending();
      await auth.devices.resend(pending);
      return reply.code(202).send(null);
    },
  );

  app.post(
    '/auth/device/approve-link',
    {
      schema: {
        tags,
        summary: 'The approve link of a new-device mail: confirms that sign-in, from any browser, without a session',
        description:
          'NOT_FOUND for an unknown, replaced, used or expired link. The page asks before it posts (a mail scanner ' +
          'that opens links approves nothing: the token is in the fragment).',
        body: LinkBody,
        response: { 204: NoContent, ...errorResponses(400, 404) },
      },
    },
    async (request, reply) => {
      if (!(await auth.devices.confirmByLink(await clientOf(request), request.body.token)))
        throw new NotFoundError('This link is not valid');
      return reply.code(204).send(null);
    },
  );
};
