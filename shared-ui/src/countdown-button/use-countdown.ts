import { useCallback, useEffect, useRef, useState } from 'react';

/** Seconds left of a countdown; `start(seconds)` (re)starts it. Ticks every second. */
export function useCountdown() {
  const [left, setLeft] = useState(0);
  const endsAt = useRef(0);
  const timer = useRef<ReturnType<typeof setInterval> | undefined>(undefined);

  const stop = useCallback(() => {
    if (timer.current) clearInterval(timer.current);
    timer.current = undefined;
  }, []);

  const start = useCallback(
    (seconds: number) => {
      stop();
      endsAt.current = Date.now() + seconds * 1000;
      setLeft(seconds);
      timer.current = setInterval(() => {
        const remaining = Math.max(0, Math.ceil((endsAt.current - Date.now()) / 1000));
        setLeft(remaining);
        if (remaining === 0) stop();
      }, 1000);
    },
    [stop],
  );

  useEffect(() => stop, [stop]);
  return { left, start, stop };
}
