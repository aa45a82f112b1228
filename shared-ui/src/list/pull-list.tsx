import { InfiniteScroll, PullToRefresh } from 'antd-mobile';
import type { Key, ReactNode } from 'react';
import { useUiTranslation } from '../i18n/index.ts';
import { Spinner } from '../internal/spinner.tsx';
import { EmptyState, ErrorState, LoadingState } from '../states/states.tsx';
import './pull-list.css';

export interface PullListProps<T> {
  items: readonly T[];
  renderItem: (item: T, index: number) => ReactNode;
  itemKey: (item: T, index: number) => Key;
  /** Pull down to refresh (omit to disable). */
  onRefresh?: () => Promise<unknown>;
  /** Loads the next page; a rejection shows "loading failed, tap to retry". Omit for a finite list. */
  loadMore?: () => Promise<unknown>;
  hasMore?: boolean;
  /** State of the first load: 'loading' and 'error' replace an empty list. Default 'ready'. */
  status?: 'loading' | 'error' | 'ready';
  /** Retry of a failed first load. */
  onRetry?: () => void;
  /** Text of the empty state (default translated "no data yet"). */
  emptyText?: string;
  className?: string;
}

function LoadMoreFooter({ hasMore, failed, retry }: { hasMore: boolean; failed: boolean; retry: () => void }) {
  const { t } = useUiTranslation();
  if (failed) {
    return (
      <button type="button" className="cw-list__retry" data-testid="list-retry" onClick={retry}>
        {t('list.loadFailed')}
      </button>
    );
  }
  if (hasMore) {
    return (
      <span className="cw-list__footer" data-testid="list-loading-more">
        <Spinner size={16} /> {t('list.loadingMore')}
      </span>
    );
  }
  return (
    <span className="cw-list__footer" data-testid="list-no-more">
      {t('list.noMore')}
    </span>
  );
}

/** A list with pull-to-refresh and infinite scroll (antd-mobile), plus loading / empty / error states. */
export function PullList<T>({
  items,
  renderItem,
  itemKey,
  onRefresh,
  loadMore,
  hasMore = false,
  status = 'ready',
  onRetry,
  emptyText,
  className = '',
}: PullListProps<T>) {
  const { t } = useUiTranslation();
  let content: ReactNode;
  if (items.length === 0 && status === 'loading') content = <LoadingState />;
  else if (items.length === 0 && status === 'error') content = <ErrorState onRetry={onRetry ?? (() => {})} />;
  else if (items.length === 0 && !hasMore) content = <EmptyState text={emptyText} />;
  else {
    content = (
      <>
        <ul className="cw-list__items" data-testid="list-items">
          {items.map((item, index) => (
            <li key={itemKey(item, index)} className="cw-list__item">
              {renderItem(item, index)}
            </li>
          ))}
        </ul>
        {loadMore && (
          <InfiniteScroll loadMore={async () => void (await loadMore())} hasMore={hasMore}>
            {(more, failed, retry) => <LoadMoreFooter hasMore={more} failed={failed} retry={retry} />}
          </InfiniteScroll>
        )}
      </>
    );
  }
  return (
    <div className={`cw-list ${className}`} data-testid="list">
      <PullToRefresh
        disabled={!onRefresh}
        onRefresh={async () => void (await onRefresh?.())}
        pullingText={t('list.pulling')}
        canReleaseText={t('list.canRelease')}
        refreshingText={t('list.refreshing')}
        completeText={t('list.complete')}
      >
        {content}
      </PullToRefresh>
    </div>
  );
}
