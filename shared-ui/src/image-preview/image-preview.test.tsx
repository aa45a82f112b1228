import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DOUBLE_TAP_MS, LONG_PRESS_MS } from './gestures.ts';
import { ImagePreview, PreviewableImage } from './index.ts';

const images = ['/a.png', '/b.png', '/c.png'];

function pointer(target: Element, type: 'pointerDown' | 'pointerMove' | 'pointerUp', x: number, timeStamp: number) {
  const event = new PointerEvent(type.toLowerCase(), { bubbles: true, clientX: x, clientY: 10, pointerId: 1 });
  Object.defineProperty(event, 'timeStamp', { value: timeStamp });
  fireEvent(target, event);
}

describe('PreviewableImage', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('opens on a long-press of 500 ms, not before', () => {
    render(<PreviewableImage src="/a.png" images={images} />);
    const thumb = screen.getByTestId('previewable-image');
    fireEvent.pointerDown(thumb, { clientX: 0, clientY: 0 });
    act(() => vi.advanceTimersByTime(LONG_PRESS_MS - 1));
    expect(screen.queryByTestId('image-preview')).toBeNull();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.getByTestId('image-preview')).toBeTruthy();
    expect(screen.getByTestId('image-preview-counter').textContent).toBe('1 / 3');
    fireEvent.click(screen.getByTestId('image-preview-close'));
    expect(screen.queryByTestId('image-preview')).toBeNull();
  });

  it('a short press does not open it', () => {
    render(<PreviewableImage src="/a.png" />);
    const thumb = screen.getByTestId('previewable-image');
    fireEvent.pointerDown(thumb, { clientX: 0, clientY: 0 });
    act(() => vi.advanceTimersByTime(200));
    fireEvent.pointerUp(thumb);
    act(() => vi.advanceTimersByTime(LONG_PRESS_MS));
    expect(screen.queryByTestId('image-preview')).toBeNull();
  });
});

describe('ImagePreview', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('swipes to the next image on a fast drag and zooms on a double tap', () => {
    const onIndexChange = vi.fn();
    const onClose = vi.fn();
    render(<ImagePreview images={images} visible index={1} onIndexChange={onIndexChange} onClose={onClose} />);
    const stage = screen.getByTestId('image-preview-stage');
    pointer(stage, 'pointerDown', 300, 0);
    pointer(stage, 'pointerMove', 200, 100);
    pointer(stage, 'pointerUp', 200, 200);
    expect(onIndexChange).toHaveBeenCalledWith(2);

    pointer(stage, 'pointerDown', 100, 1000);
    pointer(stage, 'pointerUp', 100, 1010);
    pointer(stage, 'pointerDown', 100, 1000 + DOUBLE_TAP_MS - 20);
    pointer(stage, 'pointerUp', 100, 1000 + DOUBLE_TAP_MS - 10);
    const current = screen.getAllByTestId('image-preview-image')[1] as HTMLElement;
    expect(current.style.transform).toBe('scale(2)');
    act(() => vi.advanceTimersByTime(DOUBLE_TAP_MS * 2));
    expect(onClose).not.toHaveBeenCalled();

    // A lone tap closes once the double-tap window passed.
    pointer(stage, 'pointerDown', 100, 5000);
    pointer(stage, 'pointerUp', 100, 5010);
    act(() => vi.advanceTimersByTime(DOUBLE_TAP_MS));
    expect(onClose).toHaveBeenCalled();
  });
});
