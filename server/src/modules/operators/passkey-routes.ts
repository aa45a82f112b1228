import { createHash, randomBytes } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../errors/app-error.ts';
import { errorResponses } from '../../errors/schema.ts';
import { clientNetwork } from '../../lib/client-network.ts';
import { chargeIpMinute } from '../auth/ip-minute-throttle.ts';
import { NoContent } from '../auth/schemas.ts';
import type { ThrottleStore } from '../auth/throttles.ts';
import type { Sealer } from '../payment-methods/sealing.ts';
import { PasskeyCreationOptions, PasskeyIdParams, PasskeyRequestOptions } from '../security/passkey-schemas.ts';
import { CHALLENGE_TTL_MS, MAX_PASSKEYS } from '../security/passkeys-service.ts';
import { currentOperator, operatorGuard } from './guard.ts';
import {
  OperatorPasskeyList,
  OperatorPasskeyOptionsBody,
  OperatorPasskeyRegisterBody,
  OperatorPasskeySignInBody,
  OperatorPasskeyView,
} from './passkey-schemas.ts';
import { assertOperatorStepUp } from './passkey-step-up.ts';
import type { OperatorPasskeys } from './passkeys-service.ts';
import { ANY_OPERATOR } from './roles.ts';
import { OperatorSession } from './schemas.ts';
import { OPERATOR_COOKIE_PATH, type OperatorsService, SECURE_OPERATOR_COOKIE_PATH } from './service.ts';

const tags = ['ops'];
const ceremony =
  "Bound to the console's origin (OPS_ORIGIN) and its host name as RP ID, never the app's. Challenges are " +
  'single use and live 5 minutes. PASSKEY_CHALLENGE_INVALID: unknown, used or expired challenge; ' +
  "PASSKEY_REJECTED: the answer did not verify (unknown or a user's passkey, signature, origin, RP ID, user " +
  'verification, a disabled operator); PASSKEY_COUNTER_REGRESSED: a cloned key, suspended until removed.';

/**
 * The sign-in has no session to bind its challenge to: POST /ops/passkey/options sets a random nonce in
 * a short-lived HttpOnly SameSite=Strict cookie and stores its hash with the challenge; the answer is
 * taken only with the same cookie (as users' password-less sign-in, security/passkey-nonce.ts).
 */
const NONCE_COOKIE = 'ops_pk_nonce';
const NONCE_PATH = '/api/ops/passkey';
const hashNonce = (nonce: string) => createHash('sha256').update(nonce).digest('base64url');

/**
 * Operators' passkeys: /api/ops/me/passkeys (list, add with a step-up, remove: any operator, their own)
 * and /api/ops/passkey/* (sign-in with a passkey alone).
 */
export const operatorPasskeyRoutes: FastifyPluginAsyncTypebox<{
  passkeys: OperatorPasskeys;
  service: OperatorsService;
  stepUp: { db: Parameters<typeof assertOperatorStepUp>[0]['db']; sealer: Sealer; throttles: ThrottleStore };
  now: () => Date;
  optionsPerIpMinute: number;
  answersPerIpMinute: number;
}> = async (app, { passkeys, service, stepUp, now, optionsPerIpMinute, answersPerIpMinute }) => {
  const requireOperator = operatorGuard(service);
  const setSessionCookie = (request: FastifyRequest, reply: FastifyReply, token: string, expires: Date) => {
    const { name, secure } = service.cookieFor(request);
    reply.setCookie(name, token, {
      path: secure ? SECURE_OPERATOR_COOKIE_PATH : OPERATOR_COOKIE_PATH,
      httpOnly: true,
      sameSite: 'strict',
      secure,
      expires,
    });
  };

  app.get(
    '/ops/me/passkeys',
    {
      preValidation: requireOperator,
      schema: {
        security: ANY_OPERATOR,
        tags,
        summary: "The signed-in operator's passkeys",
        response: { 200: OperatorPasskeyList, ...errorResponses(401, 403) },
      },
    },
    async (request) => ({ passkeys: await passkeys.list(currentOperator(request).operatorId), max: MAX_PASSKEYS }),
  );

  app.post(
    '/ops/me/passkeys/options',
    {
      preValidation: requireOperator,
      schema: {
        security: ANY_OPERATOR,
        tags,
        summary: 'Start adding a passkey: options for navigator.credentials.create()',
        description:
          'A step-up: `totpCode` (valid once; WRONG_FACTOR_CODE, LOGIN_THROTTLED), unless the session was opened ' +
          `within 5 minutes (REAUTH_REQUIRED otherwise). PASSKEY_LIMIT at ${MAX_PASSKEYS}. ${ceremony}`,
        body: OperatorPasskeyOptionsBody,
        response: { 200: PasskeyCreationOptions, ...errorResponses(400, 401, 403, 409, 429) },
      },
    },
    async (request) => {
      const operator = currentOperator(request);
      await assertOperatorStepUp(stepUp, operator.operatorId, operator.sessionId, request.body.totpCode, now());
      return passkeys.registrationOptions({ id: operator.operatorId, name: operator.name }, operator.sessionId);
    },
  );

  app.post(
    '/ops/me/passkeys',
    {
      preValidation: requireOperator,
      schema: {
        security: ANY_OPERATOR,
        tags,
        summary: 'Add a passkey: the answer of navigator.credentials.create() and a name',
        description: `Recorded in the audit log. PASSKEY_EXISTS, PASSKEY_LIMIT. ${ceremony}`,
        body: OperatorPasskeyRegisterBody,
        response: { 201: OperatorPasskeyView, ...errorResponses(400, 401, 403, 409) },
      },
    },
    async (request, reply) => {
      const operator = currentOperator(request);
      const added = await passkeys.register(
        { id: operator.operatorId, name: operator.name },
        operator.sessionId,
        request.body,
        request.ip,
      );
      return reply.code(201).send(added);
    },
  );

  app.delete(
    '/ops/me/passkeys/:id',
    {
      preValidation: requireOperator,
      schema: {
        security: ANY_OPERATOR,
        tags,
        summary: 'Remove one of your passkeys (recorded in the audit log)',
        params: PasskeyIdParams,
        response: { 204: NoContent, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const operator = currentOperator(request);
      await passkeys.remove({ id: operator.operatorId, name: operator.name }, request.params.id, request.ip);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/ops/passkey/options',
    {
      schema: {
        tags,
        summary: 'Start an operator sign-in with a passkey: options for navigator.credentials.get()',
        description: `LOGIN_THROTTLED beyond WEBAUTHN_OPTIONS_PER_IP_MINUTE a minute per IP. Sets a short-lived HttpOnly nonce cookie that POST /api/ops/passkey/session needs. ${ceremony}`,
        response: { 200: PasskeyRequestOptions, ...errorResponses(403, 429) },
      },
    },
    async (request, reply) => {
      // Every options request counts: each writes a challenge row (retention sweeps the expired ones).
      await chargeIpMinute(
        stepUp.throttles,
        `ops-passkey-options:${clientNetwork(request.ip)}`,
        optionsPerIpMinute,
        now(),
      );
      const nonce = randomBytes(32).toString('base64url');
      reply.setCookie(NONCE_COOKIE, nonce, {
        path: NONCE_PATH,
        httpOnly: true,
        sameSite: 'strict',
        secure: service.cookieFor(request).secure,
        maxAge: Math.floor(CHALLENGE_TTL_MS / 1000),
      });
      return passkeys.signInOptions(hashNonce(nonce));
    },
  );

  app.post(
    '/ops/passkey/session',
    {
      schema: {
        tags,
        summary: 'Operator sign-in with a passkey alone (possession and user verification: phishing-resistant)',
        description:
          'LOGIN_THROTTLED beyond WEBAUTHN_ANSWERS_PER_IP_MINUTE refused answers a minute per IP (a successful ' +
          `sign-in does not count). ${ceremony}`,
        body: OperatorPasskeySignInBody,
        response: { 200: OperatorSession, ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request, reply) => {
      // A refused answer (a made-up nonce cookie and any credential id do) writes an audit row: each
      // is charged to the IP before anything is verified; a sign-in that succeeds is taken back.
      const throttleKey = `ops-passkey-answers:${clientNetwork(request.ip)}`;
      const charged = await chargeIpMinute(stepUp.throttles, throttleKey, answersPerIpMinute, now());
      const nonce = request.cookies?.[NONCE_COOKIE];
      if (typeof nonce !== 'string' || nonce.length < 16 || nonce.length > 128)
        throw new AppError('PASSKEY_CHALLENGE_INVALID', 'The passkey request expired or was already used; start again');
      reply.clearCookie(NONCE_COOKIE, { path: NONCE_PATH });
      const { token, expiresAt, name } = await passkeys.signIn(request.body.response, hashNonce(nonce), request.ip);
      await stepUp.throttles.refund(throttleKey, charged);
      setSessionCookie(request, reply, token, expiresAt);
      const operator = await service.resolveToken(token);
      return { operator: { name, roles: operator?.roles ?? [] } };
    },
  );
};
