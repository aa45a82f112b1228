import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { errorResponses } from '../../errors/schema.ts';
import { currentUser, requireUser } from '../../http/authenticate.ts';
import { InclusionProof, PorRoots, PorStatus } from './schemas.ts';
import { isIncluded, listSnapshots, proofOf, type Snapshot } from './snapshot.ts';

const HISTORY_MAX = 30;
const view = (s: Snapshot) => ({ ...s, createdAt: s.createdAt.toISOString() });

/** Proof of liabilities: the published roots (public) and the signed-in user's inclusion proof. */
interface PorRoutesOptions {
  db: Kysely<Database>;
  now: () => Date;
  /** Time between snapshots (POR_INTERVAL_MS). */
  intervalMs: number;
}

export const porRoutes: FastifyPluginAsyncTypebox<PorRoutesOptions> = async (app, { db, now, intervalMs }) => {
  app.get(
    '/por',
    {
      config: { replicaRead: true },
      schema: {
        tags: ['por'],
        summary: 'Published proof-of-liabilities roots: total user balances per asset, newest first',
        response: { 200: PorRoots, ...errorResponses(429) },
      },
    },
    async () => {
      const [latest, ...history] = await listSnapshots(db, HISTORY_MAX + 1);
      return { latest: latest ? view(latest) : null, history: history.map(view) };
    },
  );
  app.get(
    '/por/status',
    {
      config: { replicaRead: true },
      preValidation: requireUser,
      schema: {
        tags: ['por'],
        summary:
          'Whether your balance is in the latest snapshot (a new account is not until the next) and when that is due',
        response: { 200: PorStatus, ...errorResponses(401) },
      },
    },
    async (request) => {
      const [latest] = await listSnapshots(db, 1);
      if (!latest) return { latest: null, included: false, nextDueAt: now().toISOString() };
      // A schedule that is late (every instance down) is due now, not in the past.
      const dueMs = Math.max(latest.createdAt.getTime() + intervalMs, now().getTime());
      return {
        latest: { id: latest.id, createdAt: latest.createdAt.toISOString() },
        included: await isIncluded(db, latest.id, currentUser(request).userId),
        nextDueAt: new Date(dueMs).toISOString(),
      };
    },
  );
  app.get(
    '/por/proof',
    {
      config: { replicaRead: true },
      preValidation: requireUser,
      schema: {
        tags: ['por'],
        summary: 'Your inclusion proof in the latest root: your leaf (salt, balances) and the path up',
        response: { 200: InclusionProof, ...errorResponses(401, 404) },
      },
    },
    async (request) => proofOf(db, currentUser(request).userId),
  );
};
