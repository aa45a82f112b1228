// @vitest-environment jsdom
// (happy-dom breaks DOMPurify, so HTML sanitising is tested under jsdom.)
import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetToasts, TOAST_SHOW_DELAY_MS, ToastHost, toast } from './index.ts';

const visible = () => screen.queryAllByTestId('toast-item').filter((el) => el.dataset.state === 'visible');

describe('toast.html', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    resetToasts();
  });
  afterEach(() => {
    resetToasts();
    vi.useRealTimers();
  });

  it('sanitises html messages', async () => {
    render(<ToastHost />);
    act(() => {
      toast.html('<b>bold</b><img src=x onerror="alert(1)"><script>alert(2)</script>');
    });
    await act(async () => {
      await vi.advanceTimersByTimeAsync(TOAST_SHOW_DELAY_MS);
    });
    await vi.waitFor(() => expect(visible()[0]?.innerHTML).toContain('<b>bold</b>'));
    const html = visible()[0]?.innerHTML ?? '';
    expect(html).not.toContain('onerror');
    expect(html).not.toContain('script');
  });
});
