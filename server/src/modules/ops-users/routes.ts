import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { errorResponses } from '../../errors/schema.ts';
import { appendAudit } from '../audit/repository.ts';
import { currentOperator, type operatorGuard } from '../operators/guard.ts';
import { operatorSecurity } from '../operators/roles.ts';
import { actorDetails, type OpsActor, runUserAction } from './actions.ts';
import { LEDGER_PAGE_DEFAULT, ledgerPage } from './ledger-page.ts';
import { maskEmail, maskLookupKey } from './masking.ts';
import { userPage } from './page.ts';
import { revealField } from './reveal.ts';
import {
  ActionBody,
  ActionDone,
  LedgerPage,
  LedgerQuery,
  RevealBody,
  Revealed,
  SearchQuery,
  SearchResult,
  UserIdParams,
  UserPage,
} from './schemas.ts';
import { keyKind, searchUsers } from './search.ts';

/**
 * Support finds a user and sees the page masked (to answer "where is my deposit"); compliance also
 * pages the ledger, reveals a field (audited, with a reason) and acts. Finance and admin have no
 * business with a user's personal data.
 */
const LOOKUP = operatorSecurity('support', 'compliance');
const COMPLIANCE = operatorSecurity('compliance');

/**
 * /api/ops/users… (issue 32, user lookup and actions). Every lookup and page view is in the audit log
 * (operator and key: review 32a, finding 9), as is every reveal and action, in the same transaction.
 */
export const opsUsersRoutes: FastifyPluginAsyncTypebox<{
  db: Kysely<Database>;
  now: () => Date;
  requireOperator: ReturnType<typeof operatorGuard>;
}> = async (app, { db, now, requireOperator }) => {
  const actor = (request: FastifyRequest): OpsActor => {
    const o = currentOperator(request);
    return { operatorId: o.operatorId, name: o.name, ip: request.ip };
  };
  const schema = <T extends object>(security: typeof LOOKUP, summary: string, rest: T) => ({
    security,
    tags: ['ops'],
    summary,
    ...rest,
  });

  app.get(
    '/ops/users',
    {
      preValidation: requireOperator,
      schema: schema(LOOKUP, 'Finds users by id, e-mail, user name, deposit address or transaction hash', {
        description: 'At most 20 users (more: true when there are others). E-mail addresses masked. Audited.',
        querystring: SearchQuery,
        response: { 200: SearchResult, ...errorResponses(400, 401, 403) },
      }),
    },
    async (request) => {
      const key = request.query.q.trim();
      const found = await searchUsers(db, key);
      const who = actor(request);
      await appendAudit(db, {
        event: 'ops_user_lookup',
        at: now(),
        userId: found.hits.length === 1 ? (found.hits[0]?.userId ?? null) : null,
        ip: who.ip,
        details: {
          key: maskLookupKey(key),
          kind: keyKind(key),
          matches: found.hits.length,
          more: found.more,
          ...actorDetails(who),
        },
      });
      return {
        items: found.hits.map((h) => ({ ...h, email: maskEmail(h.email), createdAt: h.createdAt.toISOString() })),
        more: found.more,
      };
    },
  );

  app.get(
    '/ops/users/:userId',
    {
      preValidation: requireOperator,
      schema: schema(LOOKUP, "A user's page: profile, balances, activity, sessions, security state, tickets", {
        description: 'Personal data masked. The latest 20 rows of each list; the ledger pages further. NOT_FOUND.',
        params: UserIdParams,
        response: { 200: UserPage, ...errorResponses(400, 401, 403, 404) },
      }),
    },
    async (request) => {
      const page = await userPage(db, request.params.userId, now());
      const who = actor(request);
      await appendAudit(db, {
        event: 'ops_user_viewed',
        at: now(),
        userId: request.params.userId,
        ip: who.ip,
        details: actorDetails(who),
      });
      return page;
    },
  );

  app.get(
    '/ops/users/:userId/ledger',
    {
      preValidation: requireOperator,
      schema: schema(COMPLIANCE, "A user's ledger entries, newest first, keyset-paged", {
        params: UserIdParams,
        querystring: LedgerQuery,
        response: { 200: LedgerPage, ...errorResponses(400, 401, 403) },
      }),
    },
    async (request) => {
      const limit = request.query.limit ?? LEDGER_PAGE_DEFAULT;
      const page = await ledgerPage(db, request.params.userId, {
        ...(request.query.before === undefined ? {} : { before: request.query.before }),
        limit,
      });
      // Each page of the booking history is audited like the page view (review s7, finding 4); after
      // the read, so a failing append fails the answer.
      const who = actor(request);
      await appendAudit(db, {
        event: 'ops_user_ledger_viewed',
        at: now(),
        userId: request.params.userId,
        ip: who.ip,
        details: { before: request.query.before ?? null, limit, ...actorDetails(who) },
      });
      return page;
    },
  );

  app.post(
    '/ops/users/:userId/reveal',
    {
      preValidation: requireOperator,
      schema: schema(COMPLIANCE, 'The full value of one masked field, with a reason (audited)', {
        description: 'Answers that field only. VALIDATION_FAILED without a reason; NOT_FOUND for another user’s row.',
        params: UserIdParams,
        body: RevealBody,
        response: { 200: Revealed, ...errorResponses(400, 401, 403, 404) },
      }),
    },
    async (request) =>
      revealField(db, {
        actor: actor(request),
        userId: request.params.userId,
        field: request.body.field,
        ...(request.body.itemId === undefined ? {} : { itemId: request.body.itemId }),
        reason: request.body.reason,
        now: now(),
      }),
  );

  app.post(
    '/ops/users/:userId/actions',
    {
      preValidation: requireOperator,
      schema: schema(COMPLIANCE, 'Freeze, unfreeze, end sessions, put or lift a withdrawal hold (reason required)', {
        description:
          'Atomic and audited. Idempotent: changed is false when there was nothing to do. unfreeze lifts compliance’s freeze only, never the owner’s own.',
        params: UserIdParams,
        body: ActionBody,
        response: { 200: ActionDone, ...errorResponses(400, 401, 403, 404) },
      }),
    },
    async (request) =>
      runUserAction(db, {
        actor: actor(request),
        userId: request.params.userId,
        action: request.body.action,
        reason: request.body.reason,
        now: now(),
      }),
  );
};
