import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  clampZoom,
  DOUBLE_TAP_MS,
  isDoubleTap,
  isLongPress,
  LONG_PRESS_MS,
  MAX_ZOOM,
  MIN_ZOOM,
  nextIndex,
  PREVIEW_SWIPE_MS,
  pinchZoom,
  SWIPE_DISTANCE_RATIO,
  SWIPE_MS,
  SWIPE_VELOCITY,
  swipeDirection,
  swipeDuration,
  zoomAfterDoubleTap,
} from './gestures.ts';

describe('kit numbers', () => {
  it('are the contractual ones', () => {
    expect({
      LONG_PRESS_MS,
      DOUBLE_TAP_MS,
      MIN_ZOOM,
      MAX_ZOOM,
      PREVIEW_SWIPE_MS,
      SWIPE_MS,
      SWIPE_VELOCITY,
      SWIPE_DISTANCE_RATIO,
    }).toEqual({
      LONG_PRESS_MS: 500,
      DOUBLE_TAP_MS: 250,
      MIN_ZOOM: 1 / 3,
      MAX_ZOOM: 3,
      PREVIEW_SWIPE_MS: 300,
      SWIPE_MS: 500,
      SWIPE_VELOCITY: 0.25,
      SWIPE_DISTANCE_RATIO: 0.5,
    });
  });
});

describe('gesture math', () => {
  it('long-press starts at 500 ms', () => {
    expect(isLongPress(499)).toBe(false);
    expect(isLongPress(500)).toBe(true);
    expect(isLongPress(2000)).toBe(true);
  });

  it('double tap within 250 ms', () => {
    expect(isDoubleTap(undefined, 100)).toBe(false);
    expect(isDoubleTap(1000, 1250)).toBe(true);
    expect(isDoubleTap(1000, 1251)).toBe(false);
    expect(isDoubleTap(1000, 999)).toBe(false);
  });

  it('zoom stays within 1/3 and 3', () => {
    expect(clampZoom(0.1)).toBe(1 / 3);
    expect(clampZoom(5)).toBe(3);
    expect(clampZoom(Number.NaN)).toBe(1);
    expect(pinchZoom(1, 100, 200)).toBe(2);
    expect(pinchZoom(2, 100, 400)).toBe(3);
    expect(pinchZoom(1, 300, 50)).toBe(1 / 3);
    expect(pinchZoom(1.5, 0, 10)).toBe(1.5);
    fc.assert(
      fc.property(
        fc.double({ min: 0.01, max: 10, noNaN: true }),
        fc.double({ min: 0, max: 1000, noNaN: true }),
        fc.double({ min: 0, max: 1000, noNaN: true }),
        (z, a, b) => {
          const zoom = pinchZoom(z, a, b);
          return zoom >= MIN_ZOOM && zoom <= MAX_ZOOM;
        },
      ),
    );
  });

  it('double tap toggles between 1 and 2', () => {
    expect(zoomAfterDoubleTap(1)).toBe(2);
    expect(zoomAfterDoubleTap(0.5)).toBe(2);
    expect(zoomAfterDoubleTap(2.5)).toBe(1);
  });

  it('swipes 300 ms in the preview and 500 ms otherwise', () => {
    expect(swipeDuration(true)).toBe(300);
    expect(swipeDuration(false)).toBe(500);
  });

  it('changes image on velocity >= 0.25 px/ms or a drag over half the width', () => {
    // Slow and short: stay.
    expect(swipeDirection({ dx: -100, dt: 1000, width: 375 })).toBe(0);
    // Fast: 100 px in 400 ms = 0.25 px/ms.
    expect(swipeDirection({ dx: -100, dt: 400, width: 375 })).toBe(1);
    expect(swipeDirection({ dx: 100, dt: 400, width: 375 })).toBe(-1);
    // Slow but over half the width.
    expect(swipeDirection({ dx: -188, dt: 5000, width: 375 })).toBe(1);
    expect(swipeDirection({ dx: -187, dt: 5000, width: 375 })).toBe(0);
    // A tap-sized move never swipes.
    expect(swipeDirection({ dx: 5, dt: 1, width: 375 })).toBe(0);
  });

  it('keeps the index inside the list', () => {
    expect(nextIndex(0, -1, 3)).toBe(0);
    expect(nextIndex(2, 1, 3)).toBe(2);
    expect(nextIndex(1, 1, 3)).toBe(2);
    expect(nextIndex(0, 1, 0)).toBe(0);
  });
});
