import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import type { Static } from 'typebox';
import { errorResponses } from '../../errors/schema.ts';
import { coinDecimals } from '../catalogue/catalogue.ts';
import { currentOperator, type operatorGuard } from '../operators/guard.ts';
import { operatorSecurity } from '../operators/roles.ts';
import type { DecidingOperator } from './four-eyes.ts';
import {
  BulkBody,
  BulkResults,
  DecisionResult,
  ReasonBody,
  type ReviewItem,
  ReviewQueue,
  ReviewQueueQuery,
} from './review-schemas.ts';
import type { QueueItem, WithdrawalReview } from './review-service.ts';
import { IdParams } from './schemas.ts';

/**
 * /api/ops/withdrawals…: the review queue and its decisions (rules in four-eyes.ts). Roles:
 * - the queue: finance and compliance (both review; support never sees it);
 * - approve and bulk approve: finance only (money leaves);
 * - reject and second look: finance and compliance (stopping money or asking for more eyes is what
 *   compliance is for; neither can make a withdrawal go out).
 */
const REVIEWERS = operatorSecurity('finance', 'compliance');
const APPROVERS = operatorSecurity('finance');

function itemOf(item: QueueItem): Static<typeof ReviewItem> {
  const w = item.withdrawal;
  const s = item.signals;
  return {
    id: w.id,
    userId: w.user_id,
    username: item.username,
    coin: w.coin,
    network: w.network,
    decimals: coinDecimals(w.coin),
    address: w.address,
    amountMinor: w.amount_minor,
    feeMinor: w.fee_minor,
    arrivalMinor: w.arrival_minor,
    state: w.state,
    createdAt: w.created_at.toISOString(),
    valueUsdCents: item.valueUsdCents?.toString() ?? null,
    fourEyes: item.fourEyes,
    signals: {
      ...s,
      addressBookSavedAt: s.addressBookSavedAt?.toISOString() ?? null,
      securityChange: s.securityChange
        ? { event: s.securityChange.event, at: s.securityChange.at.toISOString() }
        : null,
      newDeviceAt: s.newDeviceAt?.toISOString() ?? null,
      withdrawn30dMinor: s.withdrawn30dMinor.toString(),
      deposited30dMinor: s.deposited30dMinor.toString(),
      accountCreatedAt: s.accountCreatedAt.toISOString(),
      complianceStop: s.complianceStop ? { ...s.complianceStop, since: s.complianceStop.since.toISOString() } : null,
    },
    decisions: item.decisions.map((d) => ({
      operator: d.operator_name,
      decision: d.decision,
      reason: d.reason,
      stateAfter: d.state_after,
      decidedAt: d.decided_at.toISOString(),
    })),
  };
}

export const withdrawalOpsRoutes: FastifyPluginAsyncTypebox<{
  review: WithdrawalReview;
  requireOperator: ReturnType<typeof operatorGuard>;
}> = async (app, { review, requireOperator }) => {
  const by = (request: FastifyRequest): DecidingOperator => {
    const o = currentOperator(request);
    return { operatorId: o.operatorId, name: o.name, roles: o.roles };
  };
  const opts = <T extends object>(security: typeof REVIEWERS, summary: string, rest: T) => ({
    preValidation: requireOperator,
    schema: { security, tags: ['ops'], summary, ...rest },
  });

  app.get(
    '/ops/withdrawals/review',
    opts(REVIEWERS, 'Withdrawals waiting for review, oldest first, each with its risk signals', {
      querystring: ReviewQueueQuery,
      response: { 200: ReviewQueue, ...errorResponses(400, 401, 403) },
    }),
    async (request) => {
      const q = request.query;
      const page = await review.queue({
        ...(q.state ? { state: q.state } : {}),
        ...(q.after ? { after: q.after } : {}),
        ...(q.limit ? { limit: q.limit } : {}),
      });
      return {
        items: page.items.map(itemOf),
        next: page.next,
        waiting: page.waiting,
        secondApprovalUsdCents: page.thresholdUsdCents.toString(),
      };
    },
  );

  app.post(
    '/ops/withdrawals/:id/approve',
    opts(APPROVERS, 'Approves (finance); above the second-approval value the first of two approvals', {
      params: IdParams,
      response: { 200: DecisionResult, ...errorResponses(400, 401, 403, 404, 409) },
    }),
    async (request) => {
      const r = await review.approve(request.params.id, by(request));
      if (r.outcome === 'needs_four_eyes') throw new Error('unreachable: a single approval was not asked for');
      return {
        id: r.row.id,
        state: r.row.state,
        fourEyes: r.outcome === 'awaiting_second_approval' ? r.because : null,
      };
    },
  );

  app.post(
    '/ops/withdrawals/:id/reject',
    opts(REVIEWERS, 'Rejects with a reason (the user sees it); the funds return to the user', {
      params: IdParams,
      body: ReasonBody,
      response: { 200: DecisionResult, ...errorResponses(400, 401, 403, 404, 409) },
    }),
    async (request) => {
      const row = await review.reject(request.params.id, by(request), request.body.reason);
      return { id: row.id, state: row.state, fourEyes: null };
    },
  );

  app.post(
    '/ops/withdrawals/:id/second-look',
    opts(REVIEWERS, 'Asks for a second look: two finance approvals needed, not by the asker', {
      params: IdParams,
      body: ReasonBody,
      response: { 200: DecisionResult, ...errorResponses(400, 401, 403, 404, 409) },
    }),
    async (request) => {
      const row = await review.secondLook(request.params.id, by(request), request.body.reason);
      return { id: row.id, state: row.state, fourEyes: 'second_look' as const };
    },
  );

  app.post(
    '/ops/withdrawals/bulk-approve',
    opts(APPROVERS, 'Approves each listed withdrawal that one approval completes; the others are left as they are', {
      body: BulkBody,
      response: { 200: BulkResults, ...errorResponses(400, 401, 403) },
    }),
    async (request) => ({ results: await review.bulkApprove(request.body.ids, by(request)) }),
  );
};
