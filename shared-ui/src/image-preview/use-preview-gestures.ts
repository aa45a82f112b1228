import { type PointerEvent, useEffect, useRef, useState } from 'react';
import {
  DOUBLE_TAP_MS,
  distance,
  isDoubleTap,
  nextIndex,
  pinchZoom,
  swipeDirection,
  TAP_SLOP_PX,
  zoomAfterDoubleTap,
} from './gestures.ts';

type Point = { x: number; y: number };

export interface PreviewState {
  images: readonly string[];
  visible: boolean;
  index: number;
  onIndexChange: (index: number) => void;
  onClose: () => void;
}

/**
 * The preview's gestures: swipe between images, pinch and double-tap zoom, a lone tap closes (after
 * the double-tap window), arrows and Escape on a keyboard. Pure rules live in gestures.ts.
 */
export function usePreviewGestures({ images, visible, index, onIndexChange, onClose }: PreviewState) {
  const stage = useRef<HTMLDivElement>(null);
  const [zoom, setZoom] = useState(1);
  const [dragX, setDragX] = useState(0);
  const [dragging, setDragging] = useState(false);
  const pointers = useRef(new Map<number, Point>());
  const gesture = useRef({ start: { x: 0, y: 0 }, startedAt: 0, pinchDistance: 0, pinchZoom: 1, moved: false });
  const lastTap = useRef<number | undefined>(undefined);
  const closeTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => {
    setZoom(1);
    setDragX(0);
  }, [index, visible]);
  useEffect(() => () => clearTimeout(closeTimer.current), []);
  useEffect(() => {
    if (!visible) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onClose();
      if (event.key === 'ArrowRight') onIndexChange(nextIndex(index, 1, images.length));
      if (event.key === 'ArrowLeft') onIndexChange(nextIndex(index, -1, images.length));
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [visible, index, images.length, onClose, onIndexChange]);

  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    event.currentTarget.setPointerCapture?.(event.pointerId);
    pointers.current.set(event.pointerId, { x: event.clientX, y: event.clientY });
    const points = [...pointers.current.values()];
    if (points.length === 2 && points[0] && points[1]) {
      gesture.current.pinchDistance = distance(points[0], points[1]);
      gesture.current.pinchZoom = zoom;
      gesture.current.moved = true;
      return;
    }
    gesture.current = {
      ...gesture.current,
      start: { x: event.clientX, y: event.clientY },
      startedAt: event.timeStamp,
      moved: false,
    };
    setDragging(true);
  };

  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    if (!pointers.current.has(event.pointerId)) return;
    pointers.current.set(event.pointerId, { x: event.clientX, y: event.clientY });
    const points = [...pointers.current.values()];
    if (points.length === 2 && points[0] && points[1]) {
      setZoom(pinchZoom(gesture.current.pinchZoom, gesture.current.pinchDistance, distance(points[0], points[1])));
      return;
    }
    const dx = event.clientX - gesture.current.start.x;
    if (Math.abs(dx) > TAP_SLOP_PX) gesture.current.moved = true;
    if (zoom === 1) setDragX(dx);
  };

  const onPointerUp = (event: PointerEvent<HTMLDivElement>) => {
    pointers.current.delete(event.pointerId);
    if (pointers.current.size > 0) return;
    setDragging(false);
    const dx = event.clientX - gesture.current.start.x;
    const dt = event.timeStamp - gesture.current.startedAt;
    setDragX(0);
    if (gesture.current.moved) {
      if (zoom === 1) {
        const width = stage.current?.clientWidth || window.innerWidth;
        const next = nextIndex(index, swipeDirection({ dx, dt, width }), images.length);
        if (next !== index) onIndexChange(next);
      }
      return;
    }
    // A tap: a second one within DOUBLE_TAP_MS zooms; a lone one closes.
    if (isDoubleTap(lastTap.current, event.timeStamp)) {
      clearTimeout(closeTimer.current);
      lastTap.current = undefined;
      setZoom(zoomAfterDoubleTap(zoom));
      return;
    }
    lastTap.current = event.timeStamp;
    closeTimer.current = setTimeout(onClose, DOUBLE_TAP_MS);
  };

  return {
    stage,
    zoom,
    dragX,
    dragging,
    handlers: { onPointerDown, onPointerMove, onPointerUp, onPointerCancel: onPointerUp },
  };
}
