import { sha256 } from '@noble/hashes/sha2';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils';

/**
 * A Merkle sum tree of user balances (proof of liabilities). Each leaf commits to a user (by id and
 * a random per-snapshot salt, so the published hashes name nobody) and their balance per asset;
 * each node commits to both children's hashes AND sums, and carries their sum up. The root's sums
 * are the platform's total liabilities per asset. A user checks their leaf is in the published root
 * by recomputing the path; a sum cannot be lowered on the way up without changing the root, and no
 * sum may be negative. The same code runs in the server (building) and the browser (verifying).
 */

export interface SumNode {
  hash: string;
  /** One non-negative amount per asset, in the snapshot's asset order, minor units. */
  sums: bigint[];
}

export interface LeafData {
  userId: string;
  /** 32 random bytes, hex. */
  salt: string;
  /** Decimal strings of minor units, in the snapshot's asset order. */
  balances: string[];
}

export interface ProofStep {
  hash: string;
  sums: string[];
  /** Where the sibling sits: the path's node is hashed on the other side. */
  side: 'left' | 'right';
}

export interface InclusionProof {
  snapshotId: string;
  assets: string[];
  leaf: LeafData;
  path: ProofStep[];
  root: { hash: string; sums: string[] };
}

/** A tree holds at most 2^PATH_MAX leaves: far above any user count, a bound on a proof's length. */
export const PATH_MAX = 40;
const DIGITS_MAX = 78;

const h = (text: string) => bytesToHex(sha256(utf8ToBytes(text)));
const sumsText = (sums: readonly bigint[]) => sums.map(String).join(',');

export function leafNode(leaf: LeafData): SumNode {
  const sums = leaf.balances.map(parseAmount);
  return { hash: h(`cw-por-leaf\u0000${leaf.salt}\u0000${leaf.userId}\u0000${sumsText(sums)}`), sums };
}

export function parentNode(left: SumNode, right: SumNode): SumNode {
  if (left.sums.length !== right.sums.length) throw new Error('children have different asset counts');
  const sums = left.sums.map((a, i) => a + (right.sums[i] ?? 0n));
  const hash = h(
    `cw-por-node\u0000${left.hash}\u0000${sumsText(left.sums)}\u0000${right.hash}\u0000${sumsText(right.sums)}`,
  );
  return { hash, sums };
}

/** The node an odd level is padded with: no user, zero sums. */
export function paddingNode(assetCount: number): SumNode {
  return { hash: h('cw-por-pad'), sums: Array.from({ length: assetCount }, () => 0n) };
}

function parseAmount(text: string): bigint {
  if (typeof text !== 'string' || !/^(0|[1-9]\d*)$/.test(text) || text.length > DIGITS_MAX) {
    throw new Error('an amount is not a non-negative integer');
  }
  return BigInt(text);
}

/** Every level of the tree, leaves first; the last level holds the root. */
export function buildLevels(leaves: readonly SumNode[], assetCount: number): SumNode[][] {
  if (leaves.length === 0) return [[paddingNode(assetCount)]];
  if (leaves.length > 2 ** PATH_MAX) throw new Error('too many leaves');
  const levels: SumNode[][] = [[...leaves]];
  let level = levels[0] as SumNode[];
  while (level.length > 1) {
    const next: SumNode[] = [];
    for (let i = 0; i < level.length; i += 2) {
      next.push(parentNode(level[i] as SumNode, level[i + 1] ?? paddingNode(assetCount)));
    }
    levels.push(next);
    level = next;
  }
  return levels;
}

/** The siblings from leaf `index` up to the root. */
export function proofPath(levels: readonly SumNode[][], index: number, assetCount: number): ProofStep[] {
  const path: ProofStep[] = [];
  let i = index;
  for (const level of levels.slice(0, -1)) {
    const siblingIndex = i % 2 === 0 ? i + 1 : i - 1;
    const sibling = level[siblingIndex] ?? paddingNode(assetCount);
    path.push({ hash: sibling.hash, sums: sibling.sums.map(String), side: i % 2 === 0 ? 'right' : 'left' });
    i = Math.floor(i / 2);
  }
  return path;
}

export type VerifyResult =
  | { ok: true; root: SumNode }
  | { ok: false; reason: 'malformed' | 'negative' | 'root_mismatch' };

/** Recomputes the path from the user's leaf; ok only when it lands exactly on the published root. */
export function verifyProof(proof: InclusionProof): VerifyResult {
  try {
    const n = proof.assets.length;
    if (proof.leaf.balances.length !== n || proof.path.length > PATH_MAX) return { ok: false, reason: 'malformed' };
    let node = leafNode(proof.leaf);
    for (const step of proof.path) {
      if (step.sums.length !== n || !/^[0-9a-f]{64}$/.test(step.hash)) return { ok: false, reason: 'malformed' };
      const sibling = { hash: step.hash, sums: step.sums.map(parseAmount) };
      node = step.side === 'right' ? parentNode(node, sibling) : parentNode(sibling, node);
    }
    const rootSums = proof.root.sums.map(parseAmount);
    const same = node.hash === proof.root.hash && node.sums.every((s, i) => s === rootSums[i]) && rootSums.length === n;
    return same ? { ok: true, root: node } : { ok: false, reason: 'root_mismatch' };
  } catch (err) {
    const negative = err instanceof Error && /non-negative/.test(err.message);
    return { ok: false, reason: negative ? 'negative' : 'malformed' };
  }
}
