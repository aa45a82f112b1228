import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { NotFoundError } from '../../errors/app-error.ts';
import { errorResponses } from '../../errors/schema.ts';
import { currentUser, requireUser } from '../../http/authenticate.ts';
import type { AuthModule } from '../auth/auth-module.ts';
import { clientOf } from '../auth/client.ts';
import { NoContent } from '../auth/schemas.ts';

const tags = ['security'];
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
      await auth.freeze.freeze(await clientOf(request), currentUser(request).userId);
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
        summary: 'The "freeze my account" link of a security mail: works without a session, any number of times',
        description: 'NOT_FOUND for an unknown token. It can only freeze, never unfreeze.',
        body: FreezeLinkBody,
        response: { 204: NoContent, ...errorResponses(400, 404) },
      },
    },
    async (request, reply) => {
      if (!(await auth.freeze.freezeByLink(await clientOf(request), request.body.token)))
        throw new NotFoundError('This link is not valid');
      return reply.code(204).send(null);
    },
  );
};
