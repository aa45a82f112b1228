import { useCallback, useEffect, useState } from 'react';

/** Seconds left until `start(seconds)` runs out; 0 when idle. Ticks once a second. */
export function useCountdown(): { left: number; start: (seconds: number) => void } {
  const [endsAt, setEndsAt] = useState(0);
  const [now, setNow] = useState(() => Date.now());

  useEffect(() => {
    if (endsAt <= now) return;
    const timer = window.setTimeout(() => setNow(Date.now()), Math.min(1000, endsAt - now));
    return () => window.clearTimeout(timer);
  }, [endsAt, now]);

  const start = useCallback((seconds: number) => {
    const current = Date.now();
    setNow(current);
    setEndsAt(current + seconds * 1000);
  }, []);

  return { left: Math.max(0, Math.ceil((endsAt - now) / 1000)), start };
}
