import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { PullList } from './index.ts';

const rows = ['a', 'b', 'c'];
const base = { renderItem: (row: string) => <span>{row}</span>, itemKey: (row: string) => row };

describe('PullList', () => {
  it('renders items and the translated "no more" footer', async () => {
    render(<PullList {...base} items={rows} loadMore={async () => {}} hasMore={false} />);
    expect(screen.getAllByRole('listitem').map((li) => li.textContent)).toEqual(rows);
    expect((await screen.findByTestId('list-no-more')).textContent).toBe('没有更多了');
  });

  it('shows loading, error (with retry) and empty states', () => {
    const onRetry = vi.fn();
    const { rerender } = render(<PullList {...base} items={[]} status="loading" />);
    expect(screen.getByTestId('state-loading')).toBeTruthy();
    rerender(<PullList {...base} items={[]} status="error" onRetry={onRetry} />);
    fireEvent.click(screen.getByTestId('state-error'));
    expect(onRetry).toHaveBeenCalled();
    rerender(<PullList {...base} items={[]} emptyText="No orders" />);
    expect(screen.getByTestId('state-empty').textContent).toBe('No orders');
  });

  it('loads more when there is more, and offers a retry after a failure', async () => {
    // happy-dom has no layout: give elements an offsetParent so InfiniteScroll measures.
    const offsetParent = Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'offsetParent');
    Object.defineProperty(HTMLElement.prototype, 'offsetParent', { configurable: true, get: () => document.body });
    const loadMore = vi.fn(async (): Promise<void> => {
      throw new Error('offline');
    });
    render(<PullList {...base} items={rows} loadMore={loadMore} hasMore />);
    await waitFor(() => expect(loadMore).toHaveBeenCalled());
    const retry = await screen.findByTestId('list-retry');
    expect(retry.textContent).toBe('加载失败，点击重试');
    loadMore.mockImplementation(async () => {});
    fireEvent.click(retry);
    await waitFor(() => expect(loadMore).toHaveBeenCalledTimes(2));
    if (offsetParent) Object.defineProperty(HTMLElement.prototype, 'offsetParent', offsetParent);
  });
});
