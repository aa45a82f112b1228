import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Kysely } from 'kysely';
import { Type } from 'typebox';
import type { Database } from '../../db/schema.ts';
import { errorResponses } from '../../errors/schema.ts';
import { currentOperator, type operatorGuard } from '../operators/guard.ts';
import { operatorSecurity } from '../operators/roles.ts';
import { verifyFromCheckpoint } from './checkpoint.ts';
import { appendAudit } from './repository.ts';
import { AUDIT_PAGE_MAX, searchAudit } from './search.ts';
import { maskAuditRow } from './search-masking.ts';

const AUDITORS = operatorSecurity('admin', 'compliance');

const ChainStateSchema = Type.Object(
  {
    ok: Type.Boolean(),
    rows: Type.Integer(),
    head: Type.Object({ seq: Type.String(), hash: Type.String() }),
    brokenAt: Type.Union([
      Type.Object({
        chainSeq: Type.String(),
        id: Type.Union([Type.String(), Type.Null()]),
        reason: Type.String(),
      }),
      Type.Null(),
    ]),
  },
  { additionalProperties: false },
);

const SearchQuery = Type.Object(
  {
    actor: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    target: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    event: Type.Optional(Type.String({ pattern: '^[a-z_]{1,64}$' })),
    from: Type.Optional(Type.String({ format: 'date-time' })),
    to: Type.Optional(Type.String({ format: 'date-time' })),
    before: Type.Optional(Type.String({ pattern: '^[0-9]{1,19}$' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: AUDIT_PAGE_MAX })),
  },
  { additionalProperties: false },
);

const AuditEventSchema = Type.Object(
  {
    id: Type.String(),
    chainSeq: Type.String(),
    occurredAt: Type.String({ format: 'date-time' }),
    event: Type.String(),
    userId: Type.Union([Type.String(), Type.Null()]),
    ip: Type.Union([Type.String(), Type.Null()]),
    details: Type.Record(Type.String(), Type.Unknown()),
    hash: Type.String(),
  },
  { additionalProperties: false },
);

/** /api/ops/audit…: the chain's state and the log's search, for admin and compliance. */
export const auditOpsRoutes: FastifyPluginAsyncTypebox<{
  db: Kysely<Database>;
  requireOperator: ReturnType<typeof operatorGuard>;
}> = async (app, { db, requireOperator }) => {
  app.get(
    '/ops/audit/chain',
    {
      preValidation: requireOperator,
      schema: {
        security: AUDITORS,
        tags: ['ops'],
        summary: 'Verifies the audit hash chain now: its head, and the first broken link if any',
        response: { 200: ChainStateSchema, ...errorResponses(401, 403) },
      },
    },
    async () => verifyFromCheckpoint(db, new Date()),
  );

  app.get(
    '/ops/audit/events',
    {
      preValidation: requireOperator,
      schema: {
        security: AUDITORS,
        tags: ['ops'],
        summary: 'Audit events, newest first, by actor, target, event and time',
        querystring: SearchQuery,
        response: {
          200: Type.Object({ items: Type.Array(AuditEventSchema) }, { additionalProperties: false }),
          ...errorResponses(400, 401, 403),
        },
      },
    },
    async (request) => {
      const q = request.query;
      const o = currentOperator(request);
      // Who searched the log for whom (review s7, finding 2): the filters, not the answer.
      await appendAudit(db, {
        event: 'ops_audit_searched',
        at: new Date(),
        ip: request.ip,
        details: { by: o.name, byOperatorId: o.operatorId, filters: { ...q } },
      });
      const rows = await searchAudit(db, {
        actor: q.actor,
        target: q.target,
        event: q.event,
        from: q.from === undefined ? undefined : new Date(q.from),
        to: q.to === undefined ? undefined : new Date(q.to),
        beforeId: q.before,
        limit: q.limit ?? 50,
      });
      // Personal data masked (search-masking.ts); a full value only through the audited reveal.
      return { items: rows.map((r) => ({ ...maskAuditRow(r), occurredAt: r.occurredAt.toISOString() })) };
    },
  );
};
