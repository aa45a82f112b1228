import { describe, expect, it } from 'vitest';
import { buildLevels, type InclusionProof, leafNode, proofPath, verifyProof } from './merkle-sum.ts';

const assets = ['ETH', 'USDT'];
const users = Array.from({ length: 7 }, (_, i) => ({
  userId: `00000000-0000-4000-8000-00000000000${i}`,
  salt: `${i}`.repeat(64).slice(0, 64),
  balances: [String(i * 10 ** 15), String(1_000_000 * (i + 1))],
}));

function proofFor(index: number): InclusionProof {
  const levels = buildLevels(users.map(leafNode), assets.length);
  const root = levels.at(-1)?.[0];
  if (!root) throw new Error('no root');
  return {
    snapshotId: 's1',
    assets,
    leaf: users[index] as InclusionProof['leaf'],
    path: proofPath(levels, index, assets.length),
    root: { hash: root.hash, sums: root.sums.map(String) },
  };
}

describe('Merkle sum tree', () => {
  it('carries the totals to the root and verifies every user (odd count padded)', () => {
    const proof = proofFor(0);
    expect(proof.root.sums).toEqual([String(21 * 10 ** 15), String(28_000_000)]);
    for (let i = 0; i < users.length; i++) expect(verifyProof(proofFor(i))).toMatchObject({ ok: true });
    expect(proofFor(6).path).toHaveLength(3);
  });

  it('fails a tampered leaf, sum, sibling hash or root', () => {
    const p = proofFor(3);
    expect(verifyProof({ ...p, leaf: { ...p.leaf, balances: ['1', p.leaf.balances[1] as string] } })).toEqual({
      ok: false,
      reason: 'root_mismatch',
    });
    expect(verifyProof({ ...p, leaf: { ...p.leaf, userId: 'someone' } }).ok).toBe(false);
    const step = p.path[0] as InclusionProof['path'][number];
    // A sibling's sum lowered (to hide a liability) changes the hashes above it.
    expect(verifyProof({ ...p, path: [{ ...step, sums: ['0', '0'] }, ...p.path.slice(1)] }).ok).toBe(false);
    expect(verifyProof({ ...p, path: [{ ...step, hash: 'f'.repeat(64) }, ...p.path.slice(1)] }).ok).toBe(false);
    expect(
      verifyProof({ ...p, path: [{ ...step, side: step.side === 'left' ? 'right' : 'left' }, ...p.path.slice(1)] }).ok,
    ).toBe(false);
    expect(verifyProof({ ...p, root: { ...p.root, sums: ['1', '1'] } }).ok).toBe(false);
    expect(verifyProof({ ...p, path: [{ ...step, sums: ['-5', '0'] }, ...p.path.slice(1)] })).toEqual({
      ok: false,
      reason: 'negative',
    });
    expect(verifyProof({ ...p, path: [{ ...step, sums: ['1'] }, ...p.path.slice(1)] })).toEqual({
      ok: false,
      reason: 'malformed',
    });
  });
});
