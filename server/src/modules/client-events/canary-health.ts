import { assert } from '../ledger/model.ts';

/** A canary's watch settings, from the registry (`canary.autoRollback`, set by `--auto-rollback`). */
export interface AutoRollback {
  /** Percentage points the canary's failure rate may exceed the stable's by. */
  marginPct: number;
  /** Load attempts (loads + failures) of the canary before any verdict. */
  minLoads: number;
}

export const DEFAULT_AUTO_ROLLBACK: AutoRollback = { marginPct: 5, minLoads: 20 };

export interface Attempts {
  loads: number;
  failures: number;
}

export type Verdict = { action: 'wait'; reason: 'too-few-loads' } | { action: 'keep' } | { action: 'rollback' };

/**
 * Whether a canary fails more than its stable by more than the margin, over at least minLoads
 * attempts. Exact integer arithmetic (no float rounding at the boundary): canary rate - stable rate >
 * margin / 100  <=>  100 (cf sa - sf ca) > margin ca sa, with ca, sa the attempts. A stable without
 * reports counts as failing never.
 */
export function judgeCanary(canary: Attempts, stable: Attempts, settings: AutoRollback): Verdict {
  assert(settings.marginPct >= 0 && settings.marginPct <= 100, 'margin in 0..100 points');
  assert(Number.isInteger(settings.minLoads) && settings.minLoads > 0, 'minLoads a positive integer');
  const ca = BigInt(canary.loads + canary.failures);
  if (ca < BigInt(settings.minLoads)) return { action: 'wait', reason: 'too-few-loads' };
  const cf = BigInt(canary.failures);
  let sa = BigInt(stable.loads + stable.failures);
  let sf = BigInt(stable.failures);
  if (sa === 0n) {
    sa = 1n;
    sf = 0n;
  }
  const excess = 100n * (cf * sa - sf * ca);
  return excess > BigInt(settings.marginPct) * ca * sa ? { action: 'rollback' } : { action: 'keep' };
}
