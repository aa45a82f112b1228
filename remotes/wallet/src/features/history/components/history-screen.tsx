import { useCatalogue } from '@cw/shared-state/catalogue';
import { useTranslation } from '@cw/shared-state/i18n';
import { useAmountFormat } from '@cw/shared-state/money';
import { useNavigate } from '@cw/shared-state/router';
import { ChipSelect } from '@cw/shared-ui/chip-select';
import { CoinIcon } from '@cw/shared-ui/coin-icon';
import { DateField } from '@cw/shared-ui/date-field';
import { PullList } from '@cw/shared-ui/list';
import { CapsuleTabs, Tag } from 'antd-mobile';
import { useState } from 'react';
import { NAMESPACE } from '../../../i18n.ts';
import { useCodeMessage } from '../../../lib/code-message.ts';
import { formatTime } from '../../../lib/format-time.ts';
import * as ui from '../../../lib/wallet-page.module.css';
import { WalletPage } from '../../../lib/wallet-page.tsx';
import type { HistoryFilters, HistoryItem, HistoryType } from '../api/history.ts';
import { useWalletHistory } from '../api/history-queries.ts';
import { dateRange } from '../utils/date-range.ts';
import * as styles from './history-screen.module.css';

const TYPES = ['all', 'deposit', 'withdrawal', 'send'] as const;

function detailPath(item: HistoryItem): string {
  if (item.type === 'deposit') return `/coinTopup/topup?id=${item.id}`;
  return `/coinTopup/withdrawDeposit?type=${item.type}&id=${item.id}`;
}

/** /coinTopup/history: deposits, withdrawals and sends in one newest-first list, filtered by type, coin and dates. */
export default function HistoryScreen() {
  const { t, i18n } = useTranslation(NAMESPACE);
  const format = useAmountFormat();
  const codeMessage = useCodeMessage();
  const navigate = useNavigate();
  const { view } = useCatalogue();
  const [type, setType] = useState<(typeof TYPES)[number]>('all');
  const [coin, setCoin] = useState('all');
  const [startDay, setStartDay] = useState('');
  const [endDay, setEndDay] = useState('');
  const range = dateRange(startDay, endDay);
  const filters: HistoryFilters = {
    type: type === 'all' ? undefined : (type as HistoryType),
    coin: coin === 'all' ? undefined : coin,
    from: range.from,
    to: range.to,
  };
  const history = useWalletHistory(filters, !range.invalid);
  const items = history.data?.pages.flatMap((page) => page.items) ?? [];
  const coins = view ? [...new Set(view.catalogue.pairs.map((p) => p.coin))] : [];

  const renderItem = (item: HistoryItem) => {
    const decimals = view?.decimalsOf(item.coin) ?? 0;
    const incoming = item.type === 'deposit' || item.direction === 'in';
    const stateKey = item.type === 'deposit' ? `depositState.${item.state}` : `withdrawalState.${item.state}`;
    return (
      <button
        type="button"
        className={styles.item}
        data-testid="history-item"
        data-type={item.type}
        onClick={() => void navigate(detailPath(item))}
      >
        <CoinIcon coin={item.coin} size={28} />
        <span className={styles.itemMain}>
          <span className={ui.strong}>
            {t(`history.type.${item.type}${item.type === 'send' && item.direction === 'in' ? 'In' : ''}`)} · {item.coin}
          </span>
          <span className={ui.muted}>{formatTime(item.createdAt, i18n.language)}</span>
        </span>
        <span className={styles.itemSide}>
          <span className={incoming ? styles.plus : styles.minus} data-testid="history-amount">
            {incoming ? '+' : '-'}
            {view
              ? format.display(item.amountMinor, view.displayOf(item.coin))
              : format.amount(item.amountMinor, decimals)}
          </span>
          <Tag fill="outline" data-testid="history-state" data-state={item.state}>
            {item.type === 'send' ? t('history.sendDone') : t(stateKey)}
          </Tag>
        </span>
      </button>
    );
  };

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
      <section className={`${ui.card} ${ui.field}`}>
        <ChipSelect
          testId="history-coin"
          columns={5}
          options={[{ label: t('history.filter.all'), value: 'all' }, ...coins.map((c) => ({ label: c, value: c }))]}
          value={coin}
          onChange={setCoin}
        />
        <div className={styles.dates}>
          <div className={styles.date}>
            <span className={ui.label}>{t('history.from')}</span>
            <DateField
              value={startDay}
              onChange={setStartDay}
              label={t('history.from')}
              placeholder={t('history.anyDay')}
              max={new Date()}
              testId="history-from"
            />
          </div>
          <div className={styles.date}>
            <span className={ui.label}>{t('history.to')}</span>
            <DateField
              value={endDay}
              onChange={setEndDay}
              label={t('history.to')}
              placeholder={t('history.anyDay')}
              max={new Date()}
              testId="history-to"
            />
          </div>
        </div>
        {range.invalid && (
          <p className={ui.error} role="alert" data-testid="history-date-error">
            {codeMessage('DATE_RANGE_INVALID')}
          </p>
        )}
      </section>
      {!range.invalid && (
        <div className={styles.list}>
          <PullList
            items={items}
            itemKey={(item) => `${item.type}:${item.id}`}
            renderItem={renderItem}
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
