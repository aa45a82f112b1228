import { type PointerEvent, useEffect, useRef } from 'react';
import { distance, LONG_PRESS_MS, TAP_SLOP_PX } from './gestures.ts';

/**
 * Pointer handlers that call `onLongPress` once a press lasts LONG_PRESS_MS
 * (moving more than a tap's slop cancels it). Spread them on any element.
 */
export function useLongPress(onLongPress: () => void, ms = LONG_PRESS_MS) {
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const start = useRef({ x: 0, y: 0 });
  const cancel = () => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = undefined;
  };
  useEffect(() => cancel, []);
  return {
    onPointerDown: (event: PointerEvent) => {
      start.current = { x: event.clientX, y: event.clientY };
      cancel();
      timer.current = setTimeout(() => {
        timer.current = undefined;
        onLongPress();
      }, ms);
    },
    onPointerMove: (event: PointerEvent) => {
      if (distance(start.current, { x: event.clientX, y: event.clientY }) > TAP_SLOP_PX) cancel();
    },
    onPointerUp: cancel,
    onPointerCancel: cancel,
    onPointerLeave: cancel,
    // The long-press opens the preview, not the browser's image menu.
    onContextMenu: (event: { preventDefault: () => void }) => event.preventDefault(),
  };
}
