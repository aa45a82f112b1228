import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { UnauthenticatedError } from '../../errors/app-error.ts';
import { errorResponses } from '../../errors/schema.ts';
import { currentUser, requireUser } from '../../http/authenticate.ts';
import { toMe } from '../auth/accounts-service.ts';
import type { AuthModule } from '../auth/auth-module.ts';
import { clientOf, signInClientOf } from '../auth/client.ts';
import { DeviceConfirmationRequiredResult, NoContent, UserResult } from '../auth/schemas.ts';
import { deviceIdFor, setDeviceCookie } from './device-cookie.ts';
import { completeFactorLogin } from './login-factor.ts';
import { listLoginAttempts } from './login-history.ts';
import { assertRecentAuth, REAUTH_WINDOW_MS } from './reauth.ts';
import {
  FactorBody,
  LoginHistory,
  LoginsQuery,
  ReauthBody,
  RecoveryCodes,
  SecurityStatus,
  TotpConfirmBody,
  TotpEnrolment,
} from './schemas.ts';

export interface SecurityRoutesOptions {
  auth: AuthModule;
}

const tags = ['security'];

/** /api/me/security/*: second factors and re-authentication; /api/auth/login/factor: a sign-in's second step. */
export const securityRoutes: FastifyPluginAsyncTypebox<SecurityRoutesOptions> = async (app, { auth }) => {
  const { db } = auth;
  const now = auth.now;

  app.post(
    '/auth/login/factor',
    {
      schema: {
        tags: ['auth'],
        summary: 'Second step of a sign-in: the authenticator code or a recovery code',
        description:
          'Needs the cookie of a sign-in that answered 202 (within 5 minutes): UNAUTHENTICATED otherwise. ' +
          'WRONG_FACTOR_CODE carries details.attemptsLeft; FACTOR_THROTTLED details.retryAfterSeconds; ' +
          'FACTOR_CODE_USED: that 30 s code was already accepted once.',
        body: FactorBody,
        response: { 200: UserResult, 202: DeviceConfirmationRequiredResult, ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request, reply) => {
      const pending = await auth.sessions.pendingOf(request);
      if (!pending) throw new UnauthenticatedError('No sign-in waits for a second factor; sign in again');
      const secure = auth.sessions.isSecure(request);
      const deviceId = deviceIdFor(request, secure);
      // The cookie is the pending sign-in: it resolves to nobody, so it is not looked up again.
      const client = { ...signInClientOf(request), deviceId };
      const { token, session, account, devicePending } = await completeFactorLogin(
        { db, now, devices: auth.devices, factors: auth.factors, sessions: auth.sessions, throttles: auth.throttles },
        client,
        pending,
        request.body,
      );
      auth.sessions.setCookie(request, reply, token, session.expires_at);
      setDeviceCookie(reply, deviceId, secure);
      if (devicePending) return reply.code(202).send({ deviceConfirmationRequired: true });
      return { user: toMe(account) };
    },
  );

  app.get(
    '/me/security',
    {
      preValidation: requireUser,
      schema: {
        tags,
        summary: 'Which second factors are on, and whether this session may change them now',
        response: { 200: SecurityStatus, ...errorResponses(401) },
      },
    },
    async (request) => {
      const client = await clientOf(request);
      const status = await auth.factors.status(currentUser(request).userId);
      const session = client.sessionId
        ? await db
            .selectFrom('sessions')
            .select('authenticated_at')
            .where('id', '=', client.sessionId)
            .executeTakeFirst()
        : undefined;
      const until = session?.authenticated_at ? new Date(session.authenticated_at.getTime() + REAUTH_WINDOW_MS) : null;
      return { ...status, reauthenticatedUntil: until && until > now() ? until.toISOString() : null };
    },
  );

  app.post(
    '/me/security/reauth',
    {
      preValidation: requireUser,
      schema: {
        tags,
        summary: 'Prove the password (and the second factor, if on) again: security changes for 5 minutes',
        description: 'WRONG_PASSWORD / LOGIN_THROTTLED as a password change; FACTOR_REQUIRED when a factor is on.',
        body: ReauthBody,
        response: { 204: NoContent, ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request, reply) => {
      await auth.reauth.reauthenticate(await clientOf(request), currentUser(request).userId, request.body);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/me/security/totp',
    {
      preValidation: requireUser,
      schema: {
        tags,
        summary: 'Start adding an authenticator app: a new secret and its otpauth:// URI (off until confirmed)',
        description: 'REAUTH_REQUIRED unless the password was proved within 5 minutes; TOTP_ALREADY_ON.',
        response: { 200: TotpEnrolment, ...errorResponses(401, 403, 409) },
      },
    },
    async (request) => {
      const client = await clientOf(request);
      await assertRecentAuth(db, client, now());
      const userId = currentUser(request).userId;
      const me = await auth.accounts.me(userId);
      return auth.factors.startTotp(client, userId, me.username);
    },
  );

  app.post(
    '/me/security/totp/confirm',
    {
      preValidation: requireUser,
      schema: {
        tags,
        summary: 'Turn the authenticator app on with its first code; returns 10 recovery codes, shown once',
        description:
          'Starts the 24 h outflow hold (OUTFLOW_HOLD) and mails a notice. TOTP_NOT_ENROLLED when no set-up waits.',
        body: TotpConfirmBody,
        response: { 200: RecoveryCodes, ...errorResponses(400, 401, 403, 409, 429) },
      },
    },
    async (request) => {
      const client = await clientOf(request);
      await assertRecentAuth(db, client, now());
      return auth.factors.confirmTotp(client, currentUser(request).userId, request.body.code);
    },
  );

  app.post(
    '/me/security/totp/remove',
    {
      preValidation: requireUser,
      schema: {
        tags,
        summary: 'Remove the authenticator app (with a current code or a recovery code); voids the recovery codes',
        description: 'Starts the 24 h outflow hold and mails a notice.',
        body: FactorBody,
        response: { 204: NoContent, ...errorResponses(400, 401, 403, 409, 429) },
      },
    },
    async (request, reply) => {
      const client = await clientOf(request);
      await assertRecentAuth(db, client, now());
      await auth.factors.disableTotp(client, currentUser(request).userId, request.body);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/me/security/recovery-codes',
    {
      preValidation: requireUser,
      schema: {
        tags,
        summary: 'New recovery codes (the old ones stop working); shown once',
        response: { 200: RecoveryCodes, ...errorResponses(401, 403, 409) },
      },
    },
    async (request) => {
      const client = await clientOf(request);
      await assertRecentAuth(db, client, now());
      return auth.factors.regenerateRecoveryCodes(client, currentUser(request).userId);
    },
  );

  app.get(
    '/me/security/logins',
    {
      preValidation: requireUser,
      schema: {
        tags,
        summary: 'Login history: every sign-in attempt of the last 90 days (device, IP, method, result), paged',
        querystring: LoginsQuery,
        response: { 200: LoginHistory, ...errorResponses(400, 401) },
      },
    },
    async (request) =>
      listLoginAttempts(db, currentUser(request).userId, now(), {
        before: request.query.before,
        limit: request.query.limit ?? 20,
      }),
  );
};
