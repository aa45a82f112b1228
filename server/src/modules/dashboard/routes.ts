import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { errorResponses } from '../../errors/schema.ts';
import { appendAudit } from '../audit/repository.ts';
import { currentOperator } from '../operators/guard.ts';
import { operatorSecurity } from '../operators/roles.ts';
import { dashboardFigures, lastCheck } from './figures.ts';
import { requestMoneyCheck } from './money-check.ts';
import { CheckRequested, Dashboard } from './schemas.ts';

const FINANCE = operatorSecurity('finance');
const tags = ['ops'];

/**
 * /api/ops/dashboard (finance): the money dashboard. The reconcile, the liabilities and the custody
 * comparison with the chains come from the last scheduled check (dashboard/money-check.ts), never
 * recomputed per request; the rest are bounded reads. The console polls it.
 */
export const dashboardOpsRoutes: FastifyPluginAsyncTypebox<{
  db: Kysely<Database>;
  now: () => Date;
  requireOperator: (request: import('fastify').FastifyRequest) => Promise<void>;
}> = async (app, { db, now, requireOperator }) => {
  app.get(
    '/ops/dashboard',
    {
      preValidation: requireOperator,
      schema: {
        security: FINANCE,
        tags,
        summary: 'The money dashboard: last reconcile, proof-of-liabilities root, custody, stuck withdrawals, alerts',
        description:
          'Amounts are integers of the smallest unit with their decimals. `check` is the newest scheduled check ' +
          '(MONEY_CHECK_INTERVAL_MS, default 10 minutes): reconcile, liabilities, hot wallets on chain.',
        response: { 200: Dashboard, ...errorResponses(401, 403) },
      },
    },
    async () => dashboardFigures(db, now()),
  );

  app.post(
    '/ops/dashboard/check',
    {
      preValidation: requireOperator,
      schema: {
        security: FINANCE,
        tags,
        summary: 'Ask for a money check now (the background instance runs it; at most one a minute)',
        response: { 202: CheckRequested, ...errorResponses(401, 403) },
      },
    },
    async (request, reply) => {
      const operator = currentOperator(request);
      const at = now();
      await requestMoneyCheck(db, operator.name, at);
      await appendAudit(db, {
        event: 'money_check_requested',
        at,
        ip: request.ip,
        details: { operator: operator.name, operatorId: operator.operatorId },
      });
      const { pending } = await lastCheck(db, at);
      return reply.code(202).send({ pending: pending?.started_at ? 'running' : 'requested' });
    },
  );
};
