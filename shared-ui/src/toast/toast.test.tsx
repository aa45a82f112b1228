import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  resetToasts,
  TOAST_CLEAR_AFTER_MS,
  TOAST_HIDE_AFTER_MS,
  TOAST_SHOW_DELAY_MS,
  ToastHost,
  toast,
  toastStore,
} from './index.ts';

const visible = () => screen.queryAllByTestId('toast-item').filter((el) => el.dataset.state === 'visible');

describe('toast', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    resetToasts();
  });
  afterEach(() => {
    resetToasts();
    vi.useRealTimers();
  });

  it('uses the contractual timings', () => {
    expect([TOAST_SHOW_DELAY_MS, TOAST_HIDE_AFTER_MS, TOAST_CLEAR_AFTER_MS]).toEqual([100, 3000, 500]);
  });

  it('appears ~100 ms after queueing, hides after 3000 ms and clears 500 ms after the last', () => {
    render(<ToastHost />);
    act(() => {
      toast.text('hello');
    });
    expect(screen.queryAllByTestId('toast-item')).toHaveLength(0);
    act(() => vi.advanceTimersByTime(99));
    expect(visible()).toHaveLength(0);
    act(() => vi.advanceTimersByTime(1));
    expect(visible()).toHaveLength(1);
    expect(screen.getByText('hello')).toBeTruthy();
    act(() => vi.advanceTimersByTime(TOAST_HIDE_AFTER_MS - 1));
    expect(visible()).toHaveLength(1);
    act(() => vi.advanceTimersByTime(1));
    expect(visible()).toHaveLength(0);
    // Still in the list (fading out) until 500 ms after the last one hid.
    expect(screen.getAllByTestId('toast-item')).toHaveLength(1);
    act(() => vi.advanceTimersByTime(TOAST_CLEAR_AFTER_MS - 1));
    expect(screen.getAllByTestId('toast-item')).toHaveLength(1);
    act(() => vi.advanceTimersByTime(1));
    expect(screen.queryAllByTestId('toast-item')).toHaveLength(0);
    expect(toastStore.getState().items).toEqual([]);
  });

  it('stacks messages and clears only after the last one hides', () => {
    render(<ToastHost />);
    act(() => {
      toast.success('first');
    });
    act(() => vi.advanceTimersByTime(1000));
    act(() => {
      toast.fail('second', { alertType: 2 });
    });
    act(() => vi.advanceTimersByTime(TOAST_SHOW_DELAY_MS));
    expect(visible().map((el) => el.dataset.type)).toEqual(['success', 'fail']);
    expect(visible()[1]?.className).toContain('cw-toast--plain');
    expect(visible()[0]?.className).toContain('cw-toast--rounded');
    // First hides at 100 + 3000; the list is kept while the second still shows.
    act(() => vi.advanceTimersByTime(2000 + TOAST_CLEAR_AFTER_MS));
    expect(visible().map((el) => el.dataset.type)).toEqual(['fail']);
    expect(screen.getAllByTestId('toast-item')).toHaveLength(2);
    act(() => vi.advanceTimersByTime(TOAST_HIDE_AFTER_MS));
    expect(visible()).toHaveLength(0);
    act(() => vi.advanceTimersByTime(TOAST_CLEAR_AFTER_MS));
    expect(screen.queryAllByTestId('toast-item')).toHaveLength(0);
  });

  it('keeps a loading message until its handle closes it', () => {
    render(<ToastHost />);
    let handle = { close: () => {} };
    act(() => {
      handle = toast.loading('wait');
    });
    act(() => vi.advanceTimersByTime(10_000));
    expect(visible().map((el) => el.dataset.type)).toEqual(['loading']);
    act(() => handle.close());
    expect(visible()).toHaveLength(0);
    act(() => vi.advanceTimersByTime(TOAST_CLEAR_AFTER_MS));
    expect(screen.queryAllByTestId('toast-item')).toHaveLength(0);
  });

  it('a new message cancels a pending clear', () => {
    render(<ToastHost />);
    act(() => {
      toast.text('one');
    });
    act(() => vi.advanceTimersByTime(TOAST_SHOW_DELAY_MS + TOAST_HIDE_AFTER_MS + 200));
    act(() => {
      toast.text('two');
    });
    act(() => vi.advanceTimersByTime(400));
    expect(visible().map((el) => el.textContent)).toEqual(['two']);
  });
});
