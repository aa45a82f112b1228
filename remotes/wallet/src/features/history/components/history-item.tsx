import type { CatalogueView } from '@cw/shared-state/catalogue';
import { useTranslation } from '@cw/shared-state/i18n';
import { useAmountFormat } from '@cw/shared-state/money';
import { useNavigate } from '@cw/shared-state/router';
import { CoinIcon } from '@cw/shared-ui/coin-icon';
import { Tag } from 'antd-mobile';
import { NAMESPACE } from '../../../i18n.ts';
import { formatTime } from '../../../lib/format-time.ts';
import * as ui from '../../../lib/wallet-page.module.css';
import type { HistoryItem } from '../api/history.ts';
import * as styles from './history-screen.module.css';

function detailPath(item: HistoryItem): string {
  if (item.type === 'deposit') return `/coinTopup/topup?id=${item.id}`;
  return `/coinTopup/withdrawDeposit?type=${item.type}&id=${item.id}`;
}

/** One deposit, withdrawal or send: what, when, signed amount and state; opens its detail. */
export function HistoryRow({ item, view }: { item: HistoryItem; view: CatalogueView | undefined }) {
  const { t, i18n } = useTranslation(NAMESPACE);
  const format = useAmountFormat();
  const navigate = useNavigate();
  const incoming = item.type === 'deposit' || item.direction === 'in';
  const stateKey = item.type === 'deposit' ? `depositState.${item.state}` : `withdrawalState.${item.state}`;
  const amount = view
    ? format.display(item.amountMinor, view.displayOf(item.coin))
    : format.amount(item.amountMinor, 0);
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
          {amount}
        </span>
        <Tag fill="outline" data-testid="history-state" data-state={item.state}>
          {item.type === 'send' ? t('history.sendDone') : t(stateKey)}
        </Tag>
      </span>
    </button>
  );
}
