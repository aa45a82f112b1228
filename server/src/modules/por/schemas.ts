import { type Static, Type } from 'typebox';

const amounts = Type.Array(Type.String({ pattern: '^(0|[1-9]\\d{0,77})$' }), { maxItems: 64 });
const hash = Type.String({ pattern: '^[0-9a-f]{64}$' });

export const PorRoot = Type.Object({
  id: Type.String({ format: 'uuid' }),
  createdAt: Type.String({ format: 'date-time' }),
  assets: Type.Array(Type.String(), { maxItems: 64 }),
  rootHash: hash,
  /** Total liabilities per asset (same order as assets), minor units. */
  rootSums: amounts,
  leafCount: Type.Integer({ minimum: 0 }),
});

export const PorRoots = Type.Object({
  latest: Type.Union([PorRoot, Type.Null()]),
  /** Earlier roots, newest first (at most 30). */
  history: Type.Array(PorRoot),
});

export const InclusionProof = Type.Object({
  snapshotId: Type.String({ format: 'uuid' }),
  assets: Type.Array(Type.String(), { maxItems: 64 }),
  leaf: Type.Object({ userId: Type.String(), salt: hash, balances: amounts }),
  path: Type.Array(
    Type.Object({ hash, sums: amounts, side: Type.Union([Type.Literal('left'), Type.Literal('right')]) }),
    { maxItems: 40 },
  ),
  root: Type.Object({ hash, sums: amounts }),
});
/** Whether the signed-in user's balance is in the latest snapshot, and when the next one is due. */
export const PorStatus = Type.Object({
  latest: Type.Union([
    Type.Object({ id: Type.String({ format: 'uuid' }), createdAt: Type.String({ format: 'date-time' }) }),
    Type.Null(),
  ]),
  included: Type.Boolean({ description: 'The latest snapshot holds a leaf for you (you held something then).' }),
  nextDueAt: Type.String({ format: 'date-time', description: 'When the next snapshot is due (at the latest).' }),
});

export type InclusionProofBody = Static<typeof InclusionProof>;
