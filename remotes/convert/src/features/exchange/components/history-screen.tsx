import { useTranslation } from '@cw/shared-state/i18n';
import { useAmountFormat } from '@cw/shared-state/money';
import { useNavigate } from '@cw/shared-state/router';
import { Page } from '@cw/shared-ui/page';
import { EmptyState, ErrorState, LoadingState } from '@cw/shared-ui/states';
import { Button, List } from 'antd-mobile';
import { NAMESPACE } from '../../../i18n.ts';
import * as ui from '../../../lib/trade.module.css';
import { useExchangeOrders } from '../api/exchange-queries.ts';
import { useCataloguePairs } from '../hooks/use-catalogue-pairs.ts';
import { StatusTag } from './status-tag.tsx';

/** /exchange/history: the user's exchange orders, newest first, each opening its record. */
export default function HistoryScreen() {
  const { t, i18n } = useTranslation(NAMESPACE);
  const { display } = useAmountFormat();
  const navigate = useNavigate();
  const { pairs } = useCataloguePairs();
  const orders = useExchangeOrders();
  const items = orders.data?.pages.flatMap((p) => p.items) ?? [];

  let body = null;
  if (orders.isError) body = <ErrorState onRetry={() => void orders.refetch()} />;
  else if (!orders.data || !pairs) body = <LoadingState />;
  else if (items.length === 0) body = <EmptyState />;
  else {
    body = (
      <>
        <List data-testid="exchange-history">
          {items.map((o) => (
            <List.Item
              key={o.id}
              data-testid="exchange-history-item"
              onClick={() => void navigate(`/exchange/record?id=${o.id}`)}
              description={new Date(o.createdAt).toLocaleString(i18n.language)}
              extra={<StatusTag status={o.status} />}
            >
              <span className={ui.strong}>
                {display(o.sendAmountMinor, pairs.displayOf(o.sendCoin))} {o.sendCoin} → {o.receiveCoin}
              </span>
            </List.Item>
          ))}
        </List>
        {orders.hasNextPage ? (
          <Button block loading={orders.isFetchingNextPage} onClick={() => void orders.fetchNextPage()}>
            {t('exchange.more')}
          </Button>
        ) : null}
      </>
    );
  }
  return <Page title={t('exchange.historyTitle')}>{body}</Page>;
}
