import { useEffect, useState } from 'react';

/** The current time, re-read every `periodMs` (for countdowns). */
export function useNow(periodMs = 250): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), periodMs);
    return () => clearInterval(timer);
  }, [periodMs]);
  return now;
}
