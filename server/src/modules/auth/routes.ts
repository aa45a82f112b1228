import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { errorResponses } from '../../errors/schema.ts';
import { pickMailLanguage } from '../mail/templates.ts';
import { deviceIdFor, setDeviceCookie } from '../security/device-cookie.ts';
import type { AccountsService } from './accounts-service.ts';
import { clientOf, clientWithDevice } from './client.ts';
import {
  DeviceConfirmationRequiredResult,
  FactorRequiredResult,
  LoginBody,
  NoContent,
  RegisterBody,
  ResetPasswordBody,
  SendCodeBody,
  SendCodeResult,
  UserResult,
} from './schemas.ts';
import type { Sessions } from './sessions.ts';

export interface AuthRoutesOptions {
  accounts: AccountsService;
  sessions: Sessions;
}

/** /api/auth/*: codes, registration, sign-in/out, password reset. */
export const authRoutes: FastifyPluginAsyncTypebox<AuthRoutesOptions> = async (app, { accounts, sessions }) => {
  app.post(
    '/auth/codes',
    {
      schema: {
        tags: ['auth'],
        summary: 'E-mail a 6-digit verification code',
        description:
          'register: 409 EMAIL_EXISTS if taken. reset_password: always 202 (mail only if the account exists). ' +
          'change_password, fund_password, withdraw: signed in only; the code goes to the account e-mail. ' +
          'Codes are valid 10 minutes, single use, dead after 5 wrong tries; one per 60 s per address and purpose; ' +
          'at most 10 an hour per address and per IP.',
        body: SendCodeBody,
        response: { 202: SendCodeResult, ...errorResponses(400, 401, 403, 409) },
      },
    },
    async (request, reply) => {
      const { email, purpose, language } = request.body;
      const acceptLanguage = request.headers['accept-language'];
      await accounts.sendCode(await clientOf(request), {
        email,
        purpose,
        language: pickMailLanguage(language, acceptLanguage),
      });
      return reply.code(202).send({ resendAfterSeconds: 60, expiresInSeconds: 600 });
    },
  );

  app.post(
    '/auth/register',
    {
      schema: {
        tags: ['auth'],
        summary: 'Create an account (with the e-mailed code) and sign in',
        body: RegisterBody,
        response: { 201: UserResult, ...errorResponses(400, 403, 409) },
      },
    },
    async (request, reply) => {
      // The registering browser gets its device cookie and becomes the account's first known device.
      const secure = sessions.isSecure(request);
      const client = { ...(await clientOf(request)), deviceId: deviceIdFor(request, secure) };
      const { user, token, session } = await accounts.register(client, request.body);
      sessions.setCookie(request, reply, token, session.expires_at);
      setDeviceCookie(reply, client.deviceId, secure);
      return reply.code(201).send({ user });
    },
  );

  app.post(
    '/auth/login',
    {
      schema: {
        tags: ['auth'],
        summary: 'Sign in with e-mail or user name; starts a new session',
        description:
          'INVALID_CREDENTIALS never tells whether the account exists. LOGIN_THROTTLED carries details.retryAfterSeconds. ' +
          '202: the account has a second factor; the session cookie is set but no route accepts it until ' +
          'POST /api/auth/login/factor (within 5 minutes). 202 deviceConfirmationRequired: a browser not seen ' +
          'before (device cookie); the session waits for the e-mailed code or link (15 minutes). ' +
          'totpCode (optional, a returning device that knows the app is on): checked only after a right password, ' +
          'as POST /api/auth/login/factor would, in this one request: 200 (or 202 deviceConfirmationRequired) when ' +
          'right; WRONG_FACTOR_CODE / FACTOR_CODE_USED / FACTOR_THROTTLED when not, with the pending sign-in ' +
          'cookie set (the code step may follow). Ignored when the account has no authenticator app.',
        body: LoginBody,
        response: {
          200: UserResult,
          202: Type.Union([FactorRequiredResult, DeviceConfirmationRequiredResult]),
          ...errorResponses(400, 401, 403, 429),
        },
      },
    },
    async (request, reply) => {
      const secure = sessions.isSecure(request);
      const client = { ...(await clientOf(request)), deviceId: deviceIdFor(request, secure) };
      const { user, token, session, factorRequired, deviceConfirmationRequired, factorError } = await accounts.login(
        client,
        request.body,
      );
      sessions.setCookie(request, reply, token, session.expires_at);
      setDeviceCookie(reply, client.deviceId, secure);
      // A refused code sent with the password: the pending sign-in's cookie stays, the code step may follow.
      if (factorError) throw factorError;
      // The password was right, the factor is still to come: nothing about the account is shown yet.
      if (factorRequired) return reply.code(202).send({ factorRequired: true });
      if (deviceConfirmationRequired) return reply.code(202).send({ deviceConfirmationRequired: true });
      return { user };
    },
  );

  app.post(
    '/auth/logout',
    {
      schema: {
        tags: ['auth'],
        summary: 'End the current session',
        response: { 204: NoContent, ...errorResponses(403) },
      },
    },
    async (request, reply) => {
      await accounts.logout(await clientOf(request));
      // A sign-in still waiting for its new-device e-mail ends too (it is no session the client knows).
      const pending = await sessions.devicePendingOf(request);
      if (pending)
        await accounts.logout({ ...(await clientOf(request)), userId: pending.user_id, sessionId: pending.id });
      sessions.clearCookie(request, reply);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/auth/password/reset',
    {
      schema: {
        tags: ['auth'],
        summary: 'Set a new password with an e-mailed code; ends every session of the account',
        description: 'Every browser but this one is forgotten: their next sign-in asks for the e-mailed confirmation.',
        body: ResetPasswordBody,
        response: { 204: NoContent, ...errorResponses(400, 403) },
      },
    },
    async (request, reply) => {
      const client = await clientWithDevice(request, sessions.isSecure(request));
      const ownSessionEnded = await accounts.resetPassword(client, request.body);
      if (ownSessionEnded) sessions.clearCookie(request, reply);
      return reply.code(204).send(null);
    },
  );
};
