import { useErrorMessage } from '@cw/shared-state/errors';
import { useTranslation } from '@cw/shared-state/i18n';
import { countdown, useAmountFormat } from '@cw/shared-state/money';
import { useNavigate, useSearchParams } from '@cw/shared-state/router';
import { copyText } from '@cw/shared-ui/clipboard';
import { Page } from '@cw/shared-ui/page';
import { QrCode } from '@cw/shared-ui/qr-code';
import { ErrorState, LoadingState } from '@cw/shared-ui/states';
import { toast } from '@cw/shared-ui/toast';
import { Button, NoticeBar } from 'antd-mobile';
import { useEffect, useState } from 'react';
import { NAMESPACE } from '../../../i18n.ts';
import type { ExchangeOrder } from '../api/exchange-api.ts';
import { useExchangeOrder, useRestartOrderMutation } from '../api/exchange-queries.ts';
import { useCataloguePairs } from '../hooks/use-catalogue-pairs.ts';
import * as ui from './exchange.module.css';
import { StatusTag } from './status-tag.tsx';

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
  const { t } = useTranslation(NAMESPACE);
  const { amount } = useAmountFormat();
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
  if (order.isError) body = <ErrorState onRetry={() => void order.refetch()} />;
  else if (!data || !pairs) body = <LoadingState />;
  else {
    const sendDecimals = pairs.decimalsOf(data.sendCoin);
    const receiveDecimals = pairs.decimalsOf(data.receiveCoin);
    const left = data.deadlineAt ? countdown(data.deadlineAt, now) : null;
    const timeUp = data.status === 'expired' || (waiting && left !== null && left.seconds === 0);
    body = (
      <div className={ui.body} data-testid="exchange-order-screen" data-order-id={data.id}>
        <section className={ui.card}>
          <div className={ui.row}>
            <span className={ui.label}>{t('exchange.statusLabel')}</span>
            <StatusTag status={data.status} />
          </div>
          <div className={ui.row}>
            <span className={ui.label}>{t('exchange.send')}</span>
            <span className={ui.strong}>
              {amount(data.sendAmountMinor, sendDecimals)} {data.sendCoin} (
              {pairs.networkLabel(data.sendNetwork, data.sendCoin)})
            </span>
          </div>
          <div className={ui.row}>
            <span className={ui.label}>{t('exchange.youGet')}</span>
            <span>
              {data.rateType === 'float' ? '≈ ' : ''}
              {amount(data.receiveAmountMinor ?? data.estimatedReceiveMinor, receiveDecimals)} {data.receiveCoin} (
              {pairs.networkLabel(data.receiveNetwork, data.receiveCoin)})
            </span>
          </div>
        </section>

        {waiting && left && !timeUp ? (
          <section className={ui.card} data-testid="exchange-countdown-card">
            <span className={ui.label}>{t('exchange.sendWithin')}</span>
            <div className={ui.countdown} data-testid="exchange-countdown">
              {left.text}
            </div>
          </section>
        ) : null}

        {timeUp ? (
          <section className={ui.card} data-testid="exchange-time-up">
            <NoticeBar content={t('exchange.timeUp')} color="alert" />
            <Button
              block
              color="primary"
              data-testid="exchange-restart"
              loading={restartMutation.isPending}
              onClick={() => void restart(data)}
            >
              {t('exchange.restart')}
            </Button>
          </section>
        ) : null}

        {waiting && !timeUp && data.depositAddress ? (
          <section className={ui.card} data-testid="exchange-deposit-card">
            <p className={ui.muted}>
              {t('exchange.sendExactly', {
                amount: amount(data.sendAmountMinor, sendDecimals),
                coin: data.sendCoin,
                network: pairs.networkLabel(data.sendNetwork, data.sendCoin),
              })}
            </p>
            <div className={ui.center}>
              <QrCode value={data.depositAddress} size={180} />
            </div>
            <span className={`${ui.mono} ${ui.strong}`} data-testid="exchange-deposit-address">
              {data.depositAddress}
            </span>
            <Button
              block
              fill="outline"
              color="primary"
              data-testid="exchange-copy-address"
              onClick={() => void copyText(data.depositAddress ?? '')}
            >
              {t('exchange.copyAddress')}
            </Button>
          </section>
        ) : null}

        {data.status === 'confirming' ? (
          <p className={ui.muted} data-testid="exchange-confirmations">
            {t('exchange.confirmations', {
              current: data.depositConfirmations ?? 0,
              required: data.requiredConfirmations,
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
