import { randomBytes } from 'node:crypto';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { auditOpsRoutes } from '../audit/ops-routes.ts';
import type { PasswordHasher } from '../auth/password-hashing.ts';
import type { SessionsEndedHook } from '../auth/sessions-service.ts';
import type { ThrottleStore } from '../auth/throttles.ts';
import { dashboardOpsRoutes } from '../dashboard/routes.ts';
import { createSealer } from '../payment-methods/sealing.ts';
import { createOperatorAccounts } from './accounts-service.ts';
import { operatorAdminRoutes } from './admin-routes.ts';
import { createOperatorEnrolment } from './enrolment.ts';
import { operatorGuard } from './guard.ts';
import { operatorPasskeyRoutes } from './passkey-routes.ts';
import { consoleWebAuthn, createOperatorPasskeys } from './passkeys-service.ts';
import { operatorSessionRoutes } from './routes.ts';
import { createOperatorsService, type OperatorsService } from './service.ts';

/**
 * The operators' side of the API: sign-in and enrolment, the admin's operator accounts, the audit log
 * (admin/compliance). Returns the service and the one guard the other /api/ops routes use.
 */
export async function operatorModules(
  api: FastifyInstance,
  deps: {
    db: Kysely<Database>;
    now: () => Date;
    auth: {
      hasher: PasswordHasher;
      throttles: ThrottleStore;
      sessions: { options: { secureCookie: 'auto' | 'always' | 'never' } };
    };
    /** The payout data key (PAYOUT_DATA_KEY): seals operators' authenticator secrets as users' are. */
    sealKey: Buffer | null;
    onUserSessionsEnded?: SessionsEndedHook;
    /** The console's origin (OPS_ORIGIN): operators' passkeys are bound to it and its host name. */
    consoleOrigin: string;
    /** Passkey sign-in options per IP and minute (WEBAUTHN_OPTIONS_PER_IP_MINUTE). */
    passkeyOptionsPerIpMinute: number;
    /** Refused passkey sign-in answers per IP and minute (WEBAUTHN_ANSWERS_PER_IP_MINUTE). */
    passkeyAnswersPerIpMinute: number;
  },
): Promise<{ operators: OperatorsService; requireOperator: ReturnType<typeof operatorGuard> }> {
  const { db, now, auth } = deps;
  const typed = api.withTypeProvider<TypeBoxTypeProvider>();
  const sealer = createSealer(deps.sealKey ?? randomBytes(32));
  const operators = createOperatorsService({
    db,
    now,
    hasher: auth.hasher,
    sealer,
    throttles: auth.throttles,
    secureCookie: auth.sessions.options.secureCookie,
  });
  const enrolment = createOperatorEnrolment({ db, now, hasher: auth.hasher, sealer });
  await typed.register(operatorSessionRoutes, { service: operators, enrolment });
  const requireOperator = operatorGuard(operators);
  await typed.register(operatorPasskeyRoutes, {
    passkeys: createOperatorPasskeys({ db, now, webauthn: consoleWebAuthn(deps.consoleOrigin) }),
    service: operators,
    stepUp: { db, sealer, throttles: auth.throttles },
    now,
    optionsPerIpMinute: deps.passkeyOptionsPerIpMinute,
    answersPerIpMinute: deps.passkeyAnswersPerIpMinute,
  });
  const accounts = createOperatorAccounts({
    db,
    now,
    ...(deps.onUserSessionsEnded ? { onUserSessionsEnded: deps.onUserSessionsEnded } : {}),
  });
  await typed.register(operatorAdminRoutes, { accounts, requireOperator });
  await typed.register(auditOpsRoutes, { db, requireOperator });
  await typed.register(dashboardOpsRoutes, { db, now, requireOperator });
  return { operators, requireOperator };
}
