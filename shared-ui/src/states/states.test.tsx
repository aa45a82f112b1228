import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { EmptyState, ErrorState, LoadingState } from './index.ts';

describe('states', () => {
  it('shows translated loading and empty texts', () => {
    render(
      <>
        <LoadingState />
        <EmptyState />
      </>,
    );
    expect(screen.getByTestId('state-loading').textContent).toBe('加载中…');
    expect(screen.getByTestId('state-empty').textContent).toBe('暂无数据');
  });

  it('error state says "request failed, click to reload" and retries on click', () => {
    const onRetry = vi.fn();
    render(<ErrorState onRetry={onRetry} />);
    const error = screen.getByTestId('state-error');
    expect(error.textContent).toBe('请求失败，点击重新加载');
    fireEvent.click(error);
    expect(onRetry).toHaveBeenCalledTimes(1);
  });
});
