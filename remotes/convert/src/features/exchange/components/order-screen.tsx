import { useErrorMessage } from '@cw/shared-state/errors';
import { useTranslation } from '@cw/shared-state/i18n';
import { countdown } from '@cw/shared-state/money';
import { useNavigate, useSearchParams } from '@cw/shared-state/router';
import { Page } from '@cw/shared-ui/page';
import { EmptyState, ErrorState, LoadingState } from '@cw/shared-ui/states';
import { toast } from '@cw/shared-ui/toast';
import { Button } from 'antd-mobile';
import { useEffect, useState } from 'react';
import { NAMESPACE } from '../../../i18n.ts';
import * as ui from '../../../lib/trade.module.css';
import type { ExchangeOrder } from '../api/exchange-api.ts';
import { useExchangeOrder, useRestartOrderMutation } from '../api/exchange-queries.ts';
import { useCataloguePairs } from '../hooks/use-catalogue-pairs.ts';
import { DepositCard, OrderSummary, TimeUpCard } from './order-parts.tsx';

const POLL_MS = 3000;

function useNow(active: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [active]);
  return now;
}

/** /exchange/order?id=: where to send (address + QR), the fixed-rate countdown with a restart offer, the status. */
export default function OrderScreen() {
  const { t, i18n } = useTranslation(NAMESPACE);
  const errorMessage = useErrorMessage();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const id = params.get('id') ?? '';
  const { pairs } = useCataloguePairs();
  const restartMutation = useRestartOrderMutation();
  const order = useExchangeOrder(id, POLL_MS);
  const data = order.data;
  const waiting = data?.status === 'waiting';
  const now = useNow(Boolean(waiting && data?.deadlineAt));

  const restart = (current: ExchangeOrder) =>
    restartMutation.mutate(current, {
      onSuccess: (next) => void navigate(`/exchange/order?id=${next.id}`, { replace: true }),
      onError: (error) => toast.fail(errorMessage(error)),
    });

  let body = null;
  // A link without an id: nothing to ask for (the query is off), so nothing to show or retry.
  if (id === '') body = <EmptyState />;
  else if (order.isError) body = <ErrorState onRetry={() => void order.refetch()} />;
  else if (!data || !pairs) body = <LoadingState />;
  else {
    const left = data.deadlineAt ? countdown(data.deadlineAt, now) : null;
    const timeUp = data.status === 'expired' || (waiting && left !== null && left.seconds === 0);
    body = (
      <div className={ui.body} data-testid="exchange-order-screen" data-order-id={data.id}>
        <OrderSummary order={data} pairs={pairs} />
        {waiting && left && !timeUp ? (
          <section className={ui.card} data-testid="exchange-countdown-card">
            <span className={ui.label}>{t('exchange.sendWithin')}</span>
            <div className={ui.countdown} data-testid="exchange-countdown">
              {left.text}
            </div>
          </section>
        ) : null}
        {timeUp ? <TimeUpCard restarting={restartMutation.isPending} onRestart={() => restart(data)} /> : null}
        {waiting && !timeUp && data.depositAddress ? (
          <DepositCard order={data} pairs={pairs} address={data.depositAddress} />
        ) : null}
        {data.status === 'confirming' ? (
          <p className={ui.muted} data-testid="exchange-confirmations">
            {t('exchange.confirmations', {
              current: data.depositConfirmations ?? 0,
              required: data.requiredConfirmations,
            })}
          </p>
        ) : null}
        {data.status === 'refunded' && data.refundFailedAt ? (
          // The refund transaction failed: the amount is in the wallet balance, not on its way to the address.
          <p className={ui.muted} data-testid="exchange-refund-failed">
            {t('exchange.record.refundFailedText', {
              time: new Date(data.refundFailedAt).toLocaleString(i18n.language),
            })}
          </p>
        ) : null}
        <Button
          block
          data-testid="exchange-open-record"
          onClick={() => void navigate(`/exchange/record?id=${data.id}`)}
        >
          {t('exchange.viewRecord')}
        </Button>
      </div>
    );
  }

  return <Page title={t('exchange.orderTitle')}>{body}</Page>;
}
