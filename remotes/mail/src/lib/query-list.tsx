import { PullList } from '@cw/shared-ui/list';
import type { InfiniteData, UseInfiniteQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import * as rows from './rows.module.css';

/** A newest-first list over an infinite query of `{ items }` pages: pull to refresh, more on scroll. */
export function QueryList<T>(props: {
  query: UseInfiniteQueryResult<InfiniteData<{ items: T[] }>>;
  itemKey: (item: T) => string;
  renderItem: (item: T) => ReactNode;
  emptyText: string;
  testId: string;
}) {
  const { query } = props;
  let status: 'loading' | 'error' | 'ready' = 'ready';
  if (query.isPending) status = 'loading';
  else if (query.isError) status = 'error';
  return (
    <div className={rows.list} data-testid={props.testId}>
      <PullList
        items={query.data?.pages.flatMap((page) => page.items) ?? []}
        itemKey={props.itemKey}
        renderItem={props.renderItem}
        status={status}
        onRetry={() => void query.refetch()}
        onRefresh={() => query.refetch()}
        loadMore={() => query.fetchNextPage({ throwOnError: true })}
        hasMore={query.hasNextPage}
        emptyText={props.emptyText}
      />
    </div>
  );
}
