import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { errorResponses } from '../../errors/schema.ts';
import { currentUser, requireUser } from '../../http/authenticate.ts';
import { InclusionProof, PorRoots } from './schemas.ts';
import { listSnapshots, proofOf, type Snapshot } from './snapshot.ts';

const HISTORY_MAX = 30;
const view = (s: Snapshot) => ({ ...s, createdAt: s.createdAt.toISOString() });

/** Proof of liabilities: the published roots (public) and the signed-in user's inclusion proof. */
export const porRoutes: FastifyPluginAsyncTypebox<{ db: Kysely<Database> }> = async (app, { db }) => {
  app.get(
    '/por',
    {
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
    '/por/proof',
    {
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
