import { CloseOutline } from 'antd-mobile-icons';
import { type PointerEvent, useEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { useUiTranslation } from '../i18n/index.ts';
import {
  DOUBLE_TAP_MS,
  distance,
  isDoubleTap,
  nextIndex,
  pinchZoom,
  swipeDirection,
  swipeDuration,
  TAP_SLOP_PX,
  zoomAfterDoubleTap,
} from './gestures.ts';
import './image-preview.css';

export interface ImagePreviewProps {
  images: readonly string[];
  visible: boolean;
  /** The image shown. */
  index: number;
  onIndexChange: (index: number) => void;
  onClose: () => void;
}

type Point = { x: number; y: number };

/**
 * Full-screen image preview: swipe between images (300 ms slide; velocity
 * >= 0.25 px/ms or a drag over half the width), double tap (within 250 ms)
 * to zoom, pinch between 1/3 and 3, single tap or the close button to close.
 */
export function ImagePreview({ images, visible, index, onIndexChange, onClose }: ImagePreviewProps) {
  const { t } = useUiTranslation();
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

  if (!visible || typeof document === 'undefined') return null;

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

  const offset = `calc(${-index * 100}% + ${dragX}px)`;
  return createPortal(
    <div
      className="cw-preview"
      role="dialog"
      aria-modal="true"
      aria-label={t('preview.counter', { current: index + 1, total: images.length })}
      data-testid="image-preview"
    >
      <div
        ref={stage}
        className="cw-preview__stage"
        data-testid="image-preview-stage"
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerCancel={onPointerUp}
      >
        <div
          className="cw-preview__track"
          style={{
            transform: `translateX(${offset})`,
            transition: dragging ? 'none' : `transform ${swipeDuration(true)}ms ease-out`,
          }}
        >
          {images.map((src, i) => (
            <div className="cw-preview__slide" key={`${src}-${i}`}>
              <img
                src={src}
                alt={t('preview.image', { n: i + 1 })}
                draggable={false}
                data-testid="image-preview-image"
                style={i === index ? { transform: `scale(${zoom})` } : undefined}
              />
            </div>
          ))}
        </div>
      </div>
      <div className="cw-preview__counter" data-testid="image-preview-counter">
        {t('preview.counter', { current: index + 1, total: images.length })}
      </div>
      <button
        type="button"
        className="cw-preview__close"
        data-testid="image-preview-close"
        aria-label={t('preview.close')}
        onClick={onClose}
      >
        <CloseOutline aria-hidden />
      </button>
    </div>,
    document.body,
  );
}
