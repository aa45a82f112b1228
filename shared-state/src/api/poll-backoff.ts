/** Shortest and longest wait between two polls of an open screen. */
export const POLL_MIN_MS = 3_000;
export const POLL_MAX_MS = 30_000;

interface PolledQuery {
  state: { data: unknown; status: string };
}

/**
 * A react-query `refetchInterval` for open screens whose data changes on its own (a deposit arriving,
 * a withdrawal being paid): poll every `minMs` while answers change, doubling the wait each time
 * nothing changed, up to `maxMs`. react-query keeps an unchanged answer's object (structural
 * sharing), so "changed" is a reference compare. One instance per screen (useState/useMemo).
 */
export function pollWithBackoff(minMs = POLL_MIN_MS, maxMs = POLL_MAX_MS): (query: PolledQuery) => number {
  if (!(minMs > 0 && maxMs >= minMs)) throw new Error('pollWithBackoff: 0 < minMs <= maxMs');
  let last: unknown;
  let delayMs = minMs;
  return (query) => {
    const { data } = query.state;
    if (data !== last) {
      last = data;
      delayMs = minMs;
    } else {
      delayMs = Math.min(maxMs, delayMs * 2);
    }
    return delayMs;
  };
}
