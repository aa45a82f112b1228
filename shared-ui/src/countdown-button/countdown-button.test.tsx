import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CountdownButton } from './index.ts';

describe('CountdownButton', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('starts counting only when onSend resolves, then becomes ready again', async () => {
    let resolve!: () => void;
    const onSend = vi.fn(() => new Promise<void>((r) => (resolve = r)));
    render(<CountdownButton seconds={3} onSend={onSend} />);
    const button = screen.getByTestId('countdown-button') as HTMLButtonElement;
    expect(button.textContent).toBe('发送验证码');
    act(() => fireEvent.click(button));
    expect(onSend).toHaveBeenCalledTimes(1);
    await act(async () => vi.advanceTimersByTimeAsync(5000));
    // Still waiting for the send: no countdown yet.
    expect(button.textContent).not.toContain('秒');
    await act(async () => resolve());
    expect(button.textContent).toBe('3秒后重新发送');
    expect(button.disabled).toBe(true);
    act(() => fireEvent.click(button));
    expect(onSend).toHaveBeenCalledTimes(1);
    await act(async () => vi.advanceTimersByTimeAsync(1000));
    expect(button.textContent).toBe('2秒后重新发送');
    await act(async () => vi.advanceTimersByTimeAsync(2000));
    expect(button.textContent).toBe('发送验证码');
    expect(button.disabled).toBe(false);
  });

  it('stays ready when onSend rejects', async () => {
    const onSend = vi.fn(async () => Promise.reject(new Error('rate limited')));
    render(<CountdownButton seconds={60} onSend={onSend} label="Get code" />);
    const button = screen.getByTestId('countdown-button') as HTMLButtonElement;
    await act(async () => fireEvent.click(button));
    expect(button.textContent).toBe('Get code');
    expect(button.disabled).toBe(false);
  });
});
