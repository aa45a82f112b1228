/**
 * The client seeds this browser set, kept in localStorage per user (review of issue 36 item 15, M1).
 * A draw's own inputs only show that it is consistent with what the server says about it; checked
 * against what the user chose here, they show it ran on the pair the user set: the commitment shown
 * before the choice, the client seed chosen and the prize table seen. The nonces of a pair must be
 * 1..N with no gap or repeat, so no draw was made (and hidden) on the user's pair in between.
 */

export interface SeedRecord {
  /** SHA-256 of the server seed, shown before the client seed was chosen. */
  commitment: string;
  clientSeed: string;
  /** SHA-256 of the canonical prize table shown when the seed was set. */
  prizeTableHash: string;
  /** When this browser set it (ISO). */
  setAt: string;
}

/** Pairs kept per user: a user sets at most 20 a day, and only recent draws are listed. */
export const SEED_RECORDS_MAX = 200;

const keyOf = (userId: string) => `cw.rewards.lottery-seeds.${userId}`;

const isRecord = (r: unknown): r is SeedRecord =>
  typeof r === 'object' &&
  r !== null &&
  typeof (r as SeedRecord).commitment === 'string' &&
  typeof (r as SeedRecord).clientSeed === 'string' &&
  typeof (r as SeedRecord).prizeTableHash === 'string';

export function loadSeedRecords(userId: string, storage: Storage = localStorage): SeedRecord[] {
  try {
    const parsed: unknown = JSON.parse(storage.getItem(keyOf(userId)) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter(isRecord) : [];
  } catch {
    return [];
  }
}

/** Records a pair the user just set (the server accepted it), oldest dropped past the cap. */
export function rememberSeed(
  userId: string,
  record: Omit<SeedRecord, 'setAt'>,
  storage: Storage = localStorage,
  at: Date = new Date(),
): void {
  const kept = loadSeedRecords(userId, storage).filter((r) => r.commitment !== record.commitment);
  kept.push({ ...record, setAt: at.toISOString() });
  try {
    storage.setItem(keyOf(userId), JSON.stringify(kept.slice(-SEED_RECORDS_MAX)));
  } catch {
    // Storage full or refused: verification then says the pair was not set here.
  }
}

export type DrawIssue = 'notSetHere' | 'clientSeedMismatch' | 'prizeTableMismatch' | 'nonceGap';

interface AuditedDraw {
  commitment: string;
  clientSeed: string | null;
  nonce: number;
  prizeTableHash: string | null;
}

/**
 * Each draw's issues against the stored pairs. `draws` are all the draws known on their seeds (the
 * nonce check needs every draw of a pair, from nonce 1). Day-seed draws (no client seed) predate
 * client seeds and are not checked here.
 */
export function auditDraws<D extends AuditedDraw>(
  draws: readonly D[],
  records: readonly SeedRecord[],
): { draw: D; issues: DrawIssue[] }[] {
  const byCommitment = new Map(records.map((r) => [r.commitment, r]));
  const nonces = new Map<string, number[]>();
  for (const d of draws) {
    if (d.clientSeed === null) continue;
    nonces.set(d.commitment, [...(nonces.get(d.commitment) ?? []), d.nonce]);
  }
  const contiguous = (list: number[]) => [...list].sort((a, b) => a - b).every((nonce, i) => nonce === i + 1);
  return draws.map((d) => {
    const issues: DrawIssue[] = [];
    if (d.clientSeed === null) return { draw: d, issues };
    const stored = byCommitment.get(d.commitment);
    if (!stored) issues.push('notSetHere');
    else {
      if (stored.clientSeed !== d.clientSeed) issues.push('clientSeedMismatch');
      if (stored.prizeTableHash !== d.prizeTableHash) issues.push('prizeTableMismatch');
    }
    if (!contiguous(nonces.get(d.commitment) ?? [])) issues.push('nonceGap');
    return { draw: d, issues };
  });
}
