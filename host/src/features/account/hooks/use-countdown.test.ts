import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useCountdown } from './use-countdown.ts';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('useCountdown', () => {
  it('counts down once a second to 0', () => {
    const { result } = renderHook(() => useCountdown());
    expect(result.current.left).toBe(0);
    act(() => result.current.start(60));
    expect(result.current.left).toBe(60);
    act(() => {
      vi.advanceTimersByTime(1000);
    });
    expect(result.current.left).toBe(59);
    for (let i = 0; i < 60; i += 1) {
      act(() => {
        vi.advanceTimersByTime(1000);
      });
    }
    expect(result.current.left).toBe(0);
  });
});
