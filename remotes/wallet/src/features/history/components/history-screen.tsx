import { useCatalogue } from '@cw/shared-state/catalogue';
import { useTranslation } from '@cw/shared-state/i18n';
import { PullList } from '@cw/shared-ui/list';
import { CapsuleTabs } from 'antd-mobile';
import { useState } from 'react';
import { NAMESPACE } from '../../../i18n.ts';
import { WalletPage } from '../../../lib/wallet-page.tsx';
import type { HistoryFilters, HistoryItem, HistoryType } from '../api/history.ts';
import { useWalletHistory } from '../api/history-queries.ts';
import { dateRange } from '../utils/date-range.ts';
import { type DayRange, HistoryFilterSection } from './history-filters.tsx';
import { HistoryRow } from './history-item.tsx';
import * as styles from './history-screen.module.css';

const TYPES = ['all', 'deposit', 'withdrawal', 'send'] as const;

/** /coinTopup/history: deposits, withdrawals and sends in one newest-first list, filtered by type, coin and dates. */
export default function HistoryScreen() {
  const { t } = useTranslation(NAMESPACE);
  const { view } = useCatalogue();
  const [type, setType] = useState<(typeof TYPES)[number]>('all');
  const [coin, setCoin] = useState('all');
  const [days, setDays] = useState<DayRange>({ startDay: '', endDay: '' });
  const range = dateRange(days.startDay, days.endDay);
  const filters: HistoryFilters = {
    type: type === 'all' ? undefined : (type as HistoryType),
    coin: coin === 'all' ? undefined : coin,
    from: range.from,
    to: range.to,
  };
  const history = useWalletHistory(filters, !range.invalid);
  const items = history.data?.pages.flatMap((page) => page.items) ?? [];
  const coins = view ? [...new Set(view.catalogue.pairs.map((p) => p.coin))] : [];

  let status: 'loading' | 'error' | 'ready' = 'ready';
  if (history.isPending && !range.invalid) status = 'loading';
  else if (history.isError) status = 'error';

  return (
    <WalletPage title={t('history.title')} testId="wallet-history" parent="/coinTopup">
      <CapsuleTabs activeKey={type} onChange={(key) => setType(TYPES.find((k) => k === key) ?? 'all')}>
        {TYPES.map((key) => (
          <CapsuleTabs.Tab
            key={key}
            title={<span data-testid={`history-filter-${key}`}>{t(`history.filter.${key}`)}</span>}
          />
        ))}
      </CapsuleTabs>
      <HistoryFilterSection
        coins={coins}
        coin={coin}
        onCoin={setCoin}
        days={days}
        onDays={setDays}
        invalid={range.invalid}
      />
      {!range.invalid && (
        <div className={styles.list}>
          <PullList
            items={items}
            itemKey={(item) => `${item.type}:${item.id}`}
            renderItem={(item: HistoryItem) => <HistoryRow item={item} view={view} />}
            status={status}
            onRetry={() => void history.refetch()}
            onRefresh={() => history.refetch()}
            loadMore={() => history.fetchNextPage({ throwOnError: true })}
            hasMore={history.hasNextPage}
            emptyText={t('history.empty')}
          />
        </div>
      )}
    </WalletPage>
  );
}
