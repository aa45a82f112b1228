/**
 * The image-preview numbers of the earlier app's component kit, and the pure
 * gesture math built on them (unit-tested without a DOM).
 */

/** A press this long (or longer) is a long-press. */
export const LONG_PRESS_MS = 500;
/** A second tap within this window after the first is a double tap. */
export const DOUBLE_TAP_MS = 250;
export const MIN_ZOOM = 1 / 3;
export const MAX_ZOOM = 3;
/** Zoom a double tap switches to (and back to 1). */
export const DOUBLE_TAP_ZOOM = 2;
/** Slide animation between images inside the preview. */
export const PREVIEW_SWIPE_MS = 300;
/** Slide animation of any other swipe (e.g. a carousel). */
export const SWIPE_MS = 500;
/** A release faster than this (px per ms) changes the image... */
export const SWIPE_VELOCITY = 0.25;
/** ...and so does a drag over this share of the width. */
export const SWIPE_DISTANCE_RATIO = 0.5;
/** Movement under this many px is a tap, not a drag. */
export const TAP_SLOP_PX = 10;

export function isLongPress(pressedMs: number): boolean {
  return pressedMs >= LONG_PRESS_MS;
}

/** True when a tap at `now` follows the previous tap (at `lastTapAt`) within DOUBLE_TAP_MS. */
export function isDoubleTap(lastTapAt: number | undefined, now: number): boolean {
  return lastTapAt !== undefined && now - lastTapAt >= 0 && now - lastTapAt <= DOUBLE_TAP_MS;
}

export function clampZoom(zoom: number): number {
  if (!Number.isFinite(zoom)) return 1;
  return Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, zoom));
}

/** Double tap: zoom in to DOUBLE_TAP_ZOOM from 1 (or less), otherwise back to 1. */
export function zoomAfterDoubleTap(zoom: number): number {
  return zoom > 1 ? 1 : DOUBLE_TAP_ZOOM;
}

/** Pinch: scale the zoom at the pinch's start by how far the fingers moved apart. */
export function pinchZoom(startZoom: number, startDistance: number, distance: number): number {
  if (startDistance <= 0) return clampZoom(startZoom);
  return clampZoom((startZoom * distance) / startDistance);
}

export function swipeDuration(inPreview: boolean): number {
  return inPreview ? PREVIEW_SWIPE_MS : SWIPE_MS;
}

/**
 * Where a horizontal drag released: +1 = next image, -1 = previous, 0 = stay.
 * It changes when fast enough (|dx| / dt >= SWIPE_VELOCITY) or dragged over
 * half the width.
 */
export function swipeDirection({ dx, dt, width }: { dx: number; dt: number; width: number }): -1 | 0 | 1 {
  if (Math.abs(dx) < TAP_SLOP_PX) return 0;
  const velocity = Math.abs(dx) / Math.max(dt, 1);
  const far = width > 0 && Math.abs(dx) > width * SWIPE_DISTANCE_RATIO;
  if (velocity < SWIPE_VELOCITY && !far) return 0;
  return dx < 0 ? 1 : -1;
}

/** The index after a swipe, kept inside [0, count). */
export function nextIndex(index: number, direction: -1 | 0 | 1, count: number): number {
  return Math.min(Math.max(index + direction, 0), Math.max(count - 1, 0));
}

export function distance(a: { x: number; y: number }, b: { x: number; y: number }): number {
  return Math.hypot(a.x - b.x, a.y - b.y);
}
