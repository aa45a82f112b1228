import { useTranslation } from '@cw/shared-state/i18n';
import { coinDisplay, useAmountFormat } from '@cw/shared-state/money';
import { useNavigate } from '@cw/shared-state/router';
import { PullList } from '@cw/shared-ui/list';
import { Tag } from 'antd-mobile';
import { NAMESPACE } from '../../../i18n.ts';
import type { Conversion } from '../api/convert-api.ts';
import { useConvertHistory } from '../api/convert-queries.ts';
import { useConvertCoins } from '../hooks/use-convert-coins.ts';
import type { ConvertCoin } from '../utils/coins.ts';
import * as styles from './convert-page.module.css';

export function formatTime(iso: string, language: string): string {
  return new Intl.DateTimeFormat(language, { dateStyle: 'short', timeStyle: 'medium' }).format(new Date(iso));
}

/** The user's conversions, newest first, loaded page by page; optionally one pair only. */
export function HistoryList({ pair }: { pair: { from?: ConvertCoin; to?: ConvertCoin } }) {
  const { t, i18n } = useTranslation(NAMESPACE);
  const { display } = useAmountFormat();
  const navigate = useNavigate();
  const history = useConvertHistory(pair);
  const catalogue = useConvertCoins();
  const coins = catalogue.coins ?? [];
  const items = history.data?.pages.flatMap((page) => page.items) ?? [];
  const renderItem = (c: Conversion) => (
    <button
      type="button"
      className={styles.item}
      onClick={() => void navigate(`/convert/detail?id=${c.id}`)}
      data-testid="convert-history-item"
    >
      <span className={styles.details} style={{ gap: 2 }}>
        <span className={styles.strong}>
          {c.from} → {c.to}
        </span>
        <span className={styles.muted}>{formatTime(c.createdAt, i18n.language)}</span>
      </span>
      <span className={styles.itemSide}>
        <span>
          -{display(c.amountMinor, coinDisplay(c.from, coins))} {c.from}
        </span>
        <span className={styles.strong}>
          +{display(c.receiveMinor, coinDisplay(c.to, coins))} {c.to}
        </span>
        <Tag color="success" fill="outline">
          {t('convert.status.completed')}
        </Tag>
      </span>
    </button>
  );
  return (
    <PullList
      items={items}
      renderItem={renderItem}
      itemKey={(c) => c.id}
      // The amounts need the catalogue's decimals: loading until it is here too.
      status={
        history.isError || catalogue.isError
          ? 'error'
          : history.isPending || catalogue.coins === undefined
            ? 'loading'
            : 'ready'
      }
      onRetry={() => {
        if (catalogue.isError) void catalogue.refetch();
        if (history.isError) void history.refetch();
      }}
      onRefresh={() => history.refetch()}
      loadMore={() => history.fetchNextPage()}
      hasMore={history.hasNextPage}
      emptyText={t('convert.history.empty')}
    />
  );
}
