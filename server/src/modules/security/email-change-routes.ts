import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { errorResponses } from '../../errors/schema.ts';
import { currentUser, requireUser } from '../../http/authenticate.ts';
import { StringEnum } from '../../schema/string-enum.ts';
import type { AuthModule } from '../auth/auth-module.ts';
import { clientOf, clientWithDevice } from '../auth/client.ts';
import { SendCodeResult, UserResult } from '../auth/schemas.ts';
import { mailLanguages, pickMailLanguage } from '../mail/templates.ts';
import { FactorFields } from './schemas.ts';

const NewEmail = Type.String({ maxLength: 320, description: 'The new address (trimmed and lower-cased)' });

const EmailCodeBody = Type.Object(
  {
    newEmail: NewEmail,
    language: Type.Optional(
      StringEnum(mailLanguages, { description: 'Language of the e-mail; default from Accept-Language.' }),
    ),
  },
  { additionalProperties: false },
);

const ChangeEmailBody = Type.Object(
  {
    newEmail: NewEmail,
    code: Type.String({ maxLength: 20, description: 'The 6-digit change_email code mailed to the new address' }),
    endOtherSessions: Type.Optional(Type.Boolean({ description: 'Default true: every other session ends' })),
    ...FactorFields,
  },
  { additionalProperties: false },
);

const EmailChanged = Type.Object(
  {
    user: UserResult.properties.user,
    otherSessionsEnded: Type.Integer({ minimum: 0 }),
  },
  { additionalProperties: false },
);

const PROOF =
  'REAUTH_REQUIRED unless the password (and the second factor, when on) was proved within 5 minutes ' +
  '(POST /api/me/security/reauth; a sign-in counts). ACCOUNT_FROZEN while the account is frozen.';

/** /api/me/security/email: changing the account's e-mail address (issue 31). */
export const emailChangeRoutes: FastifyPluginAsyncTypebox<{ auth: AuthModule }> = async (app, { auth }) => {
  app.post(
    '/me/security/email/code',
    {
      preValidation: requireUser,
      schema: {
        tags: ['security'],
        summary: 'E-mail a change_email code to the new address (it proves the new mailbox)',
        description:
          `${PROOF} EMAIL_EXISTS when an account has the address; EMAIL_UNCHANGED for the current one. ` +
          'One code per 60 s per address (CODE_RESEND_TOO_SOON), at most 10 an hour per address and per IP ' +
          '(CODE_RATE_LIMITED); valid 10 minutes, dead after 5 wrong tries.',
        body: EmailCodeBody,
        response: { 202: SendCodeResult, ...errorResponses(400, 401, 403, 409, 423, 429) },
      },
    },
    async (request, reply) => {
      const sent = await auth.emailChange.sendCode(await clientOf(request), currentUser(request).userId, {
        newEmail: request.body.newEmail,
        language: pickMailLanguage(request.body.language, request.headers['accept-language']),
      });
      return reply.code(202).send(sent);
    },
  );

  app.post(
    '/me/security/email',
    {
      preValidation: requireUser,
      schema: {
        tags: ['security'],
        summary: "Change the account's e-mail address; ends the other sessions unless endOtherSessions is false",
        description:
          `${PROOF} Needs the code mailed to the new address and, when on, the second factor ` +
          '(FACTOR_REQUIRED, WRONG_FACTOR_CODE, FACTOR_CODE_USED, FACTOR_THROTTLED; a passkey answers a step_up ' +
          'challenge). EMAIL_EXISTS when another account took the address first. The old address is told, with a ' +
          'one-click freeze link; withdrawals and sends are held 24 h (OUTFLOW_HOLD). Ending the other sessions ' +
          'forgets the other browsers too (their next sign-in asks for the e-mailed confirmation).',
        body: ChangeEmailBody,
        response: { 200: EmailChanged, ...errorResponses(400, 401, 403, 409, 423, 429) },
      },
    },
    async (request) => {
      const userId = currentUser(request).userId;
      const client = await clientWithDevice(request, auth.sessions.isSecure(request));
      const { otherSessionsEnded } = await auth.emailChange.change(client, userId, request.body);
      return { user: await auth.accounts.me(userId), otherSessionsEnded };
    },
  );
};
