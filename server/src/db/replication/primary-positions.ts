/**
 * The lag ceiling's yardstick (review s8b item I): the primary's WAL insert position, sampled about once a
 * second into a small ring of (time, position). A replica is fresh enough when it has replayed at least what
 * the primary had written `maxLagMs` ago (review s8b I). This measures against the primary, not against the standby's own
 * receive position, so it sees every way a standby falls behind: WAL received but not replayed, WAL never
 * received (link cut, walsender refused, needed segment removed, slow link), and replay from the archive only.
 * An idle primary writes nothing, its position stands still and a caught-up replica stays fresh; no clock
 * agreement between hosts is needed (both times are this process's monotonic clock).
 *
 * Why samples in this process and not a heartbeat row: each API instance measures the primary on its own and
 * trusts nothing another instance wrote, so nothing is shared through process memory; a lost sampler (primary
 * unreachable, its pool busy) only leaves the samples old, and then every replica read goes to the primary.
 */
export interface PositionSample {
  /** performance.now() when the position was read. */
  atMs: number;
  /** pg_lsn text. */
  lsn: string;
}

export class PrimaryPositions {
  private readonly samples: PositionSample[] = [];
  private readonly capacity: number;

  private readonly maxLagMs: number;
  private readonly intervalMs: number;

  constructor(maxLagMs: number, intervalMs: number) {
    if (!(intervalMs > 0 && maxLagMs > 0)) throw new Error('maxLagMs and the sample interval must be positive');
    this.maxLagMs = maxLagMs;
    this.intervalMs = intervalMs;
    // Enough to reach back maxLag, plus a few for a late tick; bounded whatever the settings.
    this.capacity = Math.min(10_000, Math.ceil(maxLagMs / intervalMs) + 4);
  }

  add(sample: PositionSample): void {
    this.samples.push(sample);
    if (this.samples.length > this.capacity) this.samples.shift();
  }

  /**
   * The position the replica must have replayed, or null when no trustworthy sample exists (go to the primary).
   * The newest sample at least maxLag old; before one exists (start-up), the oldest: a later position, so a
   * stricter test, never a looser one. A sample older than maxLag plus three intervals means the sampler has
   * stalled, and a stale yardstick would pass a stale replica: none.
   */
  floor(nowMs: number): string | null {
    let chosen: PositionSample | undefined;
    for (const s of this.samples) {
      if (nowMs - s.atMs >= this.maxLagMs) chosen = s;
      else break;
    }
    chosen ??= this.samples[0];
    if (!chosen) return null;
    if (nowMs - chosen.atMs > this.maxLagMs + 3 * this.intervalMs) return null;
    return chosen.lsn;
  }
}

/** Samples `read()` every `intervalMs` into `positions` until the returned stop is called. Failures are skipped. */
export function samplePrimary(
  positions: PrimaryPositions,
  intervalMs: number,
  read: () => Promise<string>,
): () => void {
  let busy = false;
  const tick = () => {
    if (busy) return;
    busy = true;
    // Stamped when the read starts: the position is at least that of this instant (the stricter reading).
    const atMs = performance.now();
    read()
      .then((lsn) => positions.add({ atMs, lsn }))
      .catch(() => undefined)
      .finally(() => {
        busy = false;
      });
  };
  tick();
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
