import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AppError, UnauthenticatedError } from '../../errors/app-error.ts';
import { errorResponses } from '../../errors/schema.ts';
import { currentUser, requireUser } from '../../http/authenticate.ts';
import { clientNetwork } from '../../lib/client-network.ts';
import type { AuthModule } from '../auth/auth-module.ts';
import { type Client, clientOf } from '../auth/client.ts';
import { chargeIpMinute } from '../auth/ip-minute-throttle.ts';
import { DeviceConfirmationRequiredResult, NoContent, UserResult } from '../auth/schemas.ts';
import { deviceIdFor, setDeviceCookie } from './device-cookie.ts';
import { passkeySignIn } from './passkey-login.ts';
import { issueSignInNonce, takeSignInNonce } from './passkey-nonce.ts';
import {
  PasskeyChallengeBody,
  PasskeyCreationOptions,
  PasskeyIdParams,
  PasskeyList,
  PasskeyLoginBody,
  PasskeyRegisterBody,
  PasskeyRegistered,
  PasskeyRemoveQuery,
  PasskeyRenameBody,
  PasskeyRequestOptions,
  PasskeyView,
} from './passkey-schemas.ts';
import { MAX_PASSKEYS } from './passkeys-service.ts';
import { assertRecentAuth } from './reauth.ts';

const tags = ['security'];

const challengeInvalid = () =>
  new AppError('PASSKEY_CHALLENGE_INVALID', 'The passkey request expired or was already used; start again');
/** A signed-in session's challenges are bound to it (requireUser ran: the session id is known). */
const sessionBinding = (client: Client): string => {
  if (client.sessionId === null) throw new UnauthenticatedError();
  return client.sessionId;
};
const ceremony =
  'Challenges are single use, live 5 minutes and are kept in PostgreSQL (any instance finishes a ceremony). ' +
  'PASSKEY_CHALLENGE_INVALID: unknown, used or expired challenge; PASSKEY_REJECTED: the answer did not verify ' +
  '(unknown passkey, signature, origin, RP ID, user verification); PASSKEY_COUNTER_REGRESSED: the signature ' +
  'counter went backwards (a cloned key), refused and recorded.';

/**
 * Passkeys (WebAuthn): /api/me/security/passkeys (list, register, rename, remove, step-up challenge),
 * /api/auth/passkey/* (password-less sign-in) and /api/auth/login/factor/passkey-options (a passkey as
 * the second step of a password sign-in; the answer goes to POST /api/auth/login/factor).
 */
export const passkeyRoutes: FastifyPluginAsyncTypebox<{ auth: AuthModule }> = async (app, { auth }) => {
  const { db, now, passkeys, factors } = auth;

  app.get(
    '/me/security/passkeys',
    {
      preValidation: requireUser,
      schema: { tags, summary: 'The passkeys of this account', response: { 200: PasskeyList, ...errorResponses(401) } },
    },
    async (request) => ({ passkeys: await passkeys.list(currentUser(request).userId), max: MAX_PASSKEYS }),
  );

  app.post(
    '/me/security/passkeys/options',
    {
      preValidation: requireUser,
      schema: {
        tags,
        summary: 'Start adding a passkey: options for navigator.credentials.create()',
        description: `REAUTH_REQUIRED unless the password was proved within 5 minutes; PASSKEY_LIMIT at ${MAX_PASSKEYS}. ${ceremony}`,
        response: { 200: PasskeyCreationOptions, ...errorResponses(401, 403, 409) },
      },
    },
    async (request) => {
      const client = await clientOf(request);
      await assertRecentAuth(db, client, now());
      const userId = currentUser(request).userId;
      const username = (await auth.accounts.me(userId)).username;
      return passkeys.registrationOptions(userId, username, sessionBinding(client));
    },
  );

  app.post(
    '/me/security/passkeys',
    {
      preValidation: requireUser,
      schema: {
        tags,
        summary: 'Add a passkey: the answer of navigator.credentials.create() and a name',
        description:
          'Starts the 24 h outflow hold (OUTFLOW_HOLD) and mails a notice; ends every other session unless ' +
          '`endOtherSessions` is false. The first factor of an account also ' +
          `gets 10 recovery codes (shown once). PASSKEY_EXISTS, PASSKEY_LIMIT. ${ceremony}`,
        body: PasskeyRegisterBody,
        response: { 201: PasskeyRegistered, ...errorResponses(400, 401, 403, 409) },
      },
    },
    async (request, reply) => {
      const client = await clientOf(request);
      await assertRecentAuth(db, client, now());
      const userId = currentUser(request).userId;
      const result = await passkeys.register(client, userId, request.body, (trx, at) =>
        factors.recoveryCodesIfNone(trx, userId, at),
      );
      return reply.code(201).send(result);
    },
  );

  app.patch(
    '/me/security/passkeys/:id',
    {
      preValidation: requireUser,
      schema: {
        tags,
        summary: 'Rename a passkey',
        params: PasskeyIdParams,
        body: PasskeyRenameBody,
        response: { 200: PasskeyView, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => passkeys.rename(currentUser(request).userId, request.params.id, request.body.name),
  );

  app.delete(
    '/me/security/passkeys/:id',
    {
      preValidation: requireUser,
      schema: {
        tags,
        summary: 'Remove a passkey',
        description:
          'REAUTH_REQUIRED unless proved within 5 minutes. Starts the 24 h outflow hold and mails a notice; the ' +
          'recovery codes go when no factor is left. Ends every other session unless endOtherSessions=false.',
        params: PasskeyIdParams,
        querystring: PasskeyRemoveQuery,
        response: { 204: NoContent, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const client = await clientOf(request);
      await assertRecentAuth(db, client, now());
      const userId = currentUser(request).userId;
      await passkeys.remove(
        client,
        userId,
        request.params.id,
        (trx) => factors.voidRecoveryCodesIfNoFactor(trx, userId),
        { endOtherSessions: request.query.endOtherSessions },
      );
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/me/security/passkeys/challenge',
    {
      preValidation: requireUser,
      schema: {
        tags,
        summary: "A step-up challenge: options for navigator.credentials.get() with this account's passkeys",
        description:
          'The answer goes in the `passkey` field wherever a second factor is asked, on this session only. ' +
          '`purpose`: `reauth` for POST /api/me/security/reauth, `step_up` (default) for withdrawals, sends, ' +
          'sells and removing the authenticator app; an answer for one is refused by the other. ' +
          `PASSKEY_NOT_FOUND when the account has none. ${ceremony}`,
        body: PasskeyChallengeBody,
        response: { 200: PasskeyRequestOptions, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => {
      const client = await clientOf(request);
      const purpose = request.body?.purpose ?? 'step_up';
      return passkeys.assertionOptions(purpose, currentUser(request).userId, sessionBinding(client));
    },
  );

  app.post(
    '/auth/passkey/options',
    {
      schema: {
        tags: ['auth'],
        summary: 'Start a password-less sign-in: options for navigator.credentials.get() (any discoverable passkey)',
        description: `LOGIN_THROTTLED beyond WEBAUTHN_OPTIONS_PER_IP_MINUTE (default 30) a minute per IP. Sets a short-lived HttpOnly nonce cookie that POST /api/auth/passkey/login needs. ${ceremony}`,
        response: { 200: PasskeyRequestOptions, ...errorResponses(403, 429) },
      },
    },
    async (request, reply) => {
      // Every options request of an IP counts (never refunded): each writes a challenge row, so
      // unauthenticated callers cannot outgrow retention's sweep.
      await chargeIpMinute(
        auth.throttles,
        `passkey-options:${clientNetwork(request.ip)}`,
        auth.webauthn.optionsPerIpMinute,
        now(),
      );
      return passkeys.assertionOptions('login', null, issueSignInNonce(request, reply));
    },
  );

  app.post(
    '/auth/passkey/login',
    {
      schema: {
        tags: ['auth'],
        summary: 'Sign in with a passkey (both factors: no password, no code); starts a new session',
        description:
          'LOGIN_THROTTLED beyond WEBAUTHN_ANSWERS_PER_IP_MINUTE (default 30) refused answers a minute per IP ' +
          `(a successful sign-in does not count). ${ceremony}`,
        body: PasskeyLoginBody,
        response: {
          200: UserResult,
          202: DeviceConfirmationRequiredResult,
          ...errorResponses(400, 401, 403, 429),
        },
      },
    },
    async (request, reply) => {
      // A refused answer needs only a victim's credential id (public) and a made-up nonce cookie, and
      // writes an audit row (and login history) for that victim: each is charged to the IP before
      // anything is verified or written. A sign-in that succeeds is taken back, so a user signing in
      // normally never uses up the budget; only refusals (any kind) lock the IP out.
      const throttleKey = `passkey-answers:${clientNetwork(request.ip)}`;
      const charged = await chargeIpMinute(auth.throttles, throttleKey, auth.webauthn.answersPerIpMinute, now());
      const secure = auth.sessions.isSecure(request);
      const deviceId = deviceIdFor(request, secure);
      const client = { ...(await clientOf(request)), deviceId };
      const binding = takeSignInNonce(request, reply);
      if (binding === null) throw challengeInvalid();
      const { token, session, userId, devicePending } = await passkeySignIn(
        { db, now, devices: auth.devices, passkeys },
        client,
        request.body.response,
        binding,
      );
      await auth.throttles.refund(throttleKey, charged);
      auth.sessions.setCookie(request, reply, token, session.expires_at);
      setDeviceCookie(reply, deviceId, secure);
      if (devicePending) return reply.code(202).send({ deviceConfirmationRequired: true });
      return { user: await auth.accounts.me(userId) };
    },
  );

  app.post(
    '/auth/login/factor/passkey-options',
    {
      schema: {
        tags: ['auth'],
        summary: 'A passkey as the second step of a password sign-in: options for navigator.credentials.get()',
        description:
          'Needs the cookie of a sign-in that answered 202; the answer goes to POST /api/auth/login/factor as ' +
          `\`passkey\`. UNAUTHENTICATED otherwise; PASSKEY_NOT_FOUND when the account has none. ${ceremony}`,
        response: { 200: PasskeyRequestOptions, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => {
      const pending = await auth.sessions.pendingOf(request);
      if (!pending) throw new UnauthenticatedError('No sign-in waits for a second factor; sign in again');
      return passkeys.assertionOptions('factor', pending.user_id, pending.id);
    },
  );
};
