import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Kysely } from 'kysely';
import { Type } from 'typebox';
import type { Database } from '../../db/schema.ts';
import { NotFoundError } from '../../errors/app-error.ts';
import { errorResponses } from '../../errors/schema.ts';
import { allowlistState } from '../allowlist/policy.ts';
import { appendAudit } from '../audit/repository.ts';
import { findAccountById, findAccountByIdentifier } from '../auth/accounts-repository.ts';
import { maskEmail } from '../auth/rules.ts';
import { currentOperator, type operatorGuard } from '../operators/guard.ts';
import { operatorSecurity } from '../operators/roles.ts';
import { maskLookupKey } from '../ops-users/masking.ts';
import { outflowHold } from '../withdrawals/outflow-holds.ts';
import { freezeState } from './freeze-state.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const Time = Type.String({ format: 'date-time' });
const NullableTime = Type.Union([Time, Type.Null()]);

const Params = Type.Object(
  { user: Type.String({ minLength: 1, maxLength: 320, description: 'The user id, e-mail address or user name' }) },
  { additionalProperties: false },
);

const SecurityState = Type.Object(
  {
    user: Type.Object(
      {
        id: Type.String({ format: 'uuid' }),
        username: Type.String(),
        email: Type.String({ description: 'Masked (al***@example.com); compliance reveals it on the user page' }),
      },
      { additionalProperties: false },
    ),
    outflowHold: Type.Union(
      [
        Type.Object(
          {
            reason: Type.String({ description: 'The audit event that started it (password_changed, email_changed…)' }),
            since: Time,
            until: Time,
          },
          { additionalProperties: false },
        ),
        Type.Null(),
      ],
      { description: 'The security-change hold on withdrawals and sends; null when none runs' },
    ),
    freeze: Type.Object(
      { frozen: Type.Boolean(), byOperator: Type.Boolean(), frozenAt: NullableTime, thawsAt: NullableTime },
      {
        additionalProperties: false,
        description: 'The owner’s freeze, or compliance’s (byOperator); thawsAt: when an owner’s unfreeze ends it',
      },
    ),
    allowlist: Type.Object(
      { on: Type.Boolean(), offAt: NullableTime },
      { additionalProperties: false, description: 'offAt: when a requested turn-off takes effect (pending-off)' },
    ),
  },
  { additionalProperties: false },
);

const iso = (d: Date | null) => (d === null ? null : d.toISOString());

/**
 * GET /api/ops/users/{user}/security-state (issue 31): what holds a user's money, for support to
 * explain. Read only: no operator route lifts a hold, a freeze or a pending allowlist turn-off early
 * (they are the owner's protection against whoever took the account; support is who a thief calls).
 */
export const opsSecurityStateRoutes: FastifyPluginAsyncTypebox<{
  db: Kysely<Database>;
  now: () => Date;
  requireOperator: ReturnType<typeof operatorGuard>;
}> = async (app, { db, now, requireOperator }) => {
  app.get(
    '/ops/users/:user/security-state',
    {
      preValidation: requireOperator,
      schema: {
        // Support answers the user who asks why they cannot withdraw; compliance looks users up.
        security: operatorSecurity('support', 'compliance'),
        tags: ['ops'],
        summary: "A user's active locks: the security-change hold, the freeze, the allowlist's pending turn-off",
        description:
          'Read only: support cannot lift any of them. NOT_FOUND when no account matches. The e-mail address is masked; every lookup is audited (operator and key).',
        params: Params,
        response: { 200: SecurityState, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => {
      const key = request.params.user.trim();
      const account = UUID.test(key) ? await findAccountById(db, key) : await findAccountByIdentifier(db, key);
      const at = now();
      // Every lookup is recorded, a miss too: probing e-mail addresses for accounts leaves a trace
      // (review 32a, finding 9).
      const operator = currentOperator(request);
      await appendAudit(db, {
        event: 'ops_user_lookup',
        at,
        userId: account?.user_id ?? null,
        ip: request.ip,
        details: {
          key: maskLookupKey(key),
          route: 'security-state',
          found: account !== undefined,
          by: operator.name,
          byOperatorId: operator.operatorId,
        },
      });
      if (!account) throw new NotFoundError('No such user');
      const userId = account.user_id;
      const [hold, freeze, allowlist] = await Promise.all([
        outflowHold(db, userId, at),
        freezeState(db, userId, at),
        allowlistState(db, userId, at),
      ]);
      return {
        user: { id: userId, username: account.username, email: maskEmail(account.email) },
        outflowHold: hold && { reason: hold.event, since: hold.since.toISOString(), until: hold.until.toISOString() },
        freeze: {
          frozen: freeze.frozen,
          byOperator: freeze.byOperator,
          frozenAt: iso(freeze.frozenAt),
          thawsAt: iso(freeze.thawsAt),
        },
        allowlist: { on: allowlist.on, offAt: iso(allowlist.offAt) },
      };
    },
  );
};
