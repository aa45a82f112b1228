import { useCatalogue } from '@cw/shared-state/catalogue';
import { useCodeMessage } from '@cw/shared-state/errors';
import { useTranslation } from '@cw/shared-state/i18n';
import { coinDisplay, useAmountFormat } from '@cw/shared-state/money';
import { useNavigate } from '@cw/shared-state/router';
import { formatFiat } from '@cw/shared-state/settings';
import { ChipSelect } from '@cw/shared-ui/chip-select';
import { DateField } from '@cw/shared-ui/date-field';
import { Page } from '@cw/shared-ui/page';
import { EmptyState, ErrorState, LoadingState } from '@cw/shared-ui/states';
import { Button, List } from 'antd-mobile';
import { useState } from 'react';
import { NAMESPACE } from '../../../i18n.ts';
import * as ui from '../../../lib/trade.module.css';
import { type OrderFilter, useRampOrders } from '../api/ramp-api.ts';
import { RampStatusTag } from './status-tag.tsx';

/** /buySell/orders: buy and sell records, newest first; side and a date range (start not after end). */
export default function OrdersScreen() {
  const { t, i18n } = useTranslation(NAMESPACE);
  const navigate = useNavigate();
  const codeMessage = useCodeMessage();
  const format = useAmountFormat();
  const catalogue = useCatalogue();
  const [side, setSide] = useState('all');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const invalid = from !== '' && to !== '' && from > to;
  const filter: OrderFilter = {
    ...(side === 'all' ? {} : { side: side as 'buy' | 'sell' }),
    ...(from ? { from } : {}),
    ...(to ? { to } : {}),
  };
  const orders = useRampOrders(filter, !invalid);
  const items = orders.data?.pages.flatMap((p) => p.items) ?? [];

  let list = null;
  if (invalid) list = null;
  else if (orders.isError) list = <ErrorState onRetry={() => void orders.refetch()} />;
  else if (!orders.data || !catalogue.data) list = <LoadingState />;
  else if (items.length === 0) list = <EmptyState />;
  else {
    const coins = catalogue.data.coins;
    list = (
      <>
        <List data-testid="ramp-orders">
          {items.map((o) => (
            <List.Item
              key={o.id}
              data-testid="ramp-order-item"
              onClick={() => void navigate(`/buySell/order?id=${o.id}`)}
              description={new Date(o.createdAt).toLocaleString(i18n.language)}
              extra={<RampStatusTag state={o.state} />}
            >
              <span className={ui.strong}>
                {t(`ramp.${o.side}`)} {format.display(o.cryptoAmountMinor, coinDisplay(o.coin, coins))} {o.coin} ·{' '}
                {formatFiat(BigInt(o.fiatAmountMinor), o.fiat, format.locale)}
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
  return (
    <Page title={t('ramp.recordsTitle')}>
      <div className={ui.body}>
        <section className={ui.card}>
          <ChipSelect
            testId="ramp-orders-side"
            columns={3}
            options={[
              { label: t('ramp.all'), value: 'all' },
              { label: t('ramp.buy'), value: 'buy' },
              { label: t('ramp.sell'), value: 'sell' },
            ]}
            value={side}
            onChange={setSide}
          />
          <div className={ui.row}>
            <DateField
              value={from}
              onChange={setFrom}
              label={t('ramp.from')}
              placeholder={t('ramp.anyDay')}
              max={new Date()}
              testId="ramp-from"
            />
            <DateField
              value={to}
              onChange={setTo}
              label={t('ramp.to')}
              placeholder={t('ramp.anyDay')}
              max={new Date()}
              testId="ramp-to"
            />
          </div>
          {invalid ? (
            <p className={ui.error} role="alert" data-testid="ramp-date-error">
              {codeMessage('DATE_RANGE_INVALID')}
            </p>
          ) : null}
        </section>
        {list}
      </div>
    </Page>
  );
}
