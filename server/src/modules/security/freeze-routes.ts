import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { AppError, NotFoundError } from '../../errors/app-error.ts';
import { errorResponses } from '../../errors/schema.ts';
import { currentUser, requireUser } from '../../http/authenticate.ts';
import { clientNetwork } from '../../lib/client-network.ts';
import type { AuthModule } from '../auth/auth-module.ts';
import { clientOf, clientWithDevice } from '../auth/client.ts';
import { NoContent } from '../auth/schemas.ts';
import { retryAfterSeconds, type ThrottlePolicy } from '../auth/throttle-schedule.ts';
import { PasskeyAssertion } from './passkey-schemas.ts';

const tags = ['security'];

/** Freeze-link uses per IP and hour (every use counts): the route needs no session, so it is bounded. */
const FREEZE_LINK_PER_IP_HOUR = 20;
const linkPolicy: ThrottlePolicy = {
  freeFailures: FREEZE_LINK_PER_IP_HOUR,
  baseLockSeconds: 3600,
  maxLockSeconds: 3600,
  resetAfterSeconds: 3600,
};
const code = (description: string) => Type.String({ maxLength: 64, description });

const FreezeStatus = Type.Object(
  {
    frozen: Type.Boolean(),
    frozenAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    thawsAt: Type.Union([
      Type.String({ format: 'date-time', description: 'When the unfreeze under way takes effect' }),
      Type.Null(),
    ]),
  },
  { $id: 'FreezeStatus', additionalProperties: false },
);

const UnfreezeBody = Type.Object(
  {
    password: Type.String({ maxLength: 128 }),
    emailCode: code('The code of POST /api/auth/codes with purpose "unfreeze"'),
    totpCode: Type.Optional(code('The authenticator code, when the app is on')),
    recoveryCode: Type.Optional(code('Or a recovery code')),
    // Or a passkey (the answer to POST /api/me/security/passkeys/challenge); the password is still needed.
    passkey: Type.Optional(PasskeyAssertion),
  },
  { additionalProperties: false },
);

const FreezeLinkBody = Type.Object(
  { token: Type.String({ maxLength: 64, description: 'The token of the link in a security mail' }) },
  { additionalProperties: false },
);

/** /api/me/security/freeze (the owner) and /api/security/freeze-link (the mail's link, no session). */
export const freezeRoutes: FastifyPluginAsyncTypebox<{ auth: AuthModule }> = async (app, { auth }) => {
  app.get(
    '/me/security/freeze',
    {
      preValidation: requireUser,
      schema: {
        tags,
        summary: 'Whether the account is frozen',
        response: { 200: FreezeStatus, ...errorResponses(401) },
      },
    },
    async (request) => auth.freeze.status(currentUser(request).userId),
  );

  app.post(
    '/me/security/freeze',
    {
      preValidation: requireUser,
      schema: {
        tags,
        summary: 'Freeze my account: every session ends; nothing may leave the account until an unfreeze',
        description:
          'Withdrawals not yet signed are cancelled (amount back to the balance); exchange and sell payouts wait. ' +
          'Repeating it is harmless and cancels an unfreeze under way.',
        response: { 204: NoContent, ...errorResponses(401) },
      },
    },
    async (request, reply) => {
      await auth.freeze.freeze(
        await clientWithDevice(request, auth.sessions.isSecure(request)),
        currentUser(request).userId,
      );
      auth.sessions.clearCookie(request, reply);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/me/security/freeze/unfreeze',
    {
      preValidation: requireUser,
      schema: {
        tags,
        summary: 'Ask to unfreeze: password, second factor (if on) and an e-mail code; takes effect after the hold',
        description:
          'ACCOUNT_NOT_FROZEN; WRONG_PASSWORD / LOGIN_THROTTLED; FACTOR_REQUIRED / WRONG_FACTOR_CODE; ' +
          'WRONG_VERIFICATION_CODE / VERIFICATION_CODE_EXPIRED. Asking again keeps the first end.',
        body: UnfreezeBody,
        response: { 200: FreezeStatus, ...errorResponses(400, 401, 403, 409, 429) },
      },
    },
    async (request) => auth.freeze.unfreeze(await clientOf(request), currentUser(request).userId, request.body),
  );

  app.post(
    '/security/freeze-link',
    {
      schema: {
        tags,
        summary: 'The "freeze my account" link of a security mail: works without a session',
        description:
          'NOT_FOUND for an unknown token, one older than 30 days, or one sent before the last completed unfreeze. ' +
          'It can only freeze, never unfreeze. Using it on an account frozen with no unfreeze under way changes ' +
          `nothing (no sessions end, no mail). RATE_LIMITED beyond ${FREEZE_LINK_PER_IP_HOUR} uses an hour per IP.`,
        body: FreezeLinkBody,
        response: { 204: NoContent, ...errorResponses(400, 404, 429) },
      },
    },
    async (request, reply) => {
      const charge = await auth.throttles.charge(`freeze-link:${clientNetwork(request.ip)}`, linkPolicy, auth.now());
      const wait = charge.state === undefined ? charge.retryAfterSeconds : retryAfterSeconds(charge.state, auth.now());
      if (wait > 0)
        throw new AppError('RATE_LIMITED', 'Too many uses of freeze links; try again later', {
          details: { retryAfterSeconds: wait },
        });
      if (
        !(await auth.freeze.freezeByLink(
          await clientWithDevice(request, auth.sessions.isSecure(request)),
          request.body.token,
        ))
      )
        throw new NotFoundError('This link is not valid');
      return reply.code(204).send(null);
    },
  );
};
