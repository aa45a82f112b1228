import { act, renderHook, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { useSubmit } from './use-submit.ts';

describe('useSubmit', () => {
  it('is pending while the request runs, then reports the result', async () => {
    let resolve: (value: string) => void = () => {};
    const action = vi.fn(() => new Promise<string>((r) => (resolve = r)));
    const onSuccess = vi.fn();
    const { result } = renderHook(() => useSubmit(action));
    act(() => result.current.mutate(1, { onSuccess }));
    expect(result.current.isPending).toBe(true);
    // A second submit while pending sends nothing.
    act(() => result.current.mutate(2, { onSuccess }));
    expect(action).toHaveBeenCalledTimes(1);
    await act(async () => resolve('done'));
    await waitFor(() => expect(result.current.isPending).toBe(false));
    expect(onSuccess).toHaveBeenCalledWith('done');
  });

  it('hands a failure to onError and ends pending', async () => {
    const onError = vi.fn();
    const { result } = renderHook(() => useSubmit(() => Promise.reject(new Error('refused'))));
    act(() => result.current.mutate(undefined, { onError }));
    await waitFor(() => expect(result.current.isPending).toBe(false));
    expect(onError).toHaveBeenCalledWith(expect.objectContaining({ message: 'refused' }));
  });
});
