import { networkLabel, useCatalogue } from '@cw/shared-state/catalogue';
import { useErrorMessage } from '@cw/shared-state/errors';
import { useTranslation } from '@cw/shared-state/i18n';
import { coinDisplay, useAmountFormat } from '@cw/shared-state/money';
import { useSearchParams } from '@cw/shared-state/router';
import { formatFiat } from '@cw/shared-state/settings';
import { TapAmount } from '@cw/shared-ui/amount';
import { Page } from '@cw/shared-ui/page';
import { EmptyState, ErrorState, LoadingState } from '@cw/shared-ui/states';
import { toast } from '@cw/shared-ui/toast';
import { useQueryClient } from '@tanstack/react-query';
import { Button, List, Steps, Tag } from 'antd-mobile';
import { type ReactNode, useEffect, useRef } from 'react';
import { NAMESPACE } from '../../../i18n.ts';
import * as ui from '../../../lib/trade.module.css';
import { type RampOrder, rampKeys, sellDeposit, useRampOrder } from '../api/ramp-api.ts';
import { goToCheckout } from '../hooks/use-submit.ts';
import { FailureReason } from './failure-reason.tsx';
import { PendingSellActions } from './pending-sell-actions.tsx';
import * as extra from './ramp.module.css';
import { RampStatusTag } from './status-tag.tsx';

const POLL_MS = 2000;

function Row({
  label,
  testId,
  children,
  mono = false,
}: {
  label: string;
  testId: string;
  children: ReactNode;
  mono?: boolean;
}) {
  return (
    <List.Item
      extra={
        <span className={`${ui.value} ${mono ? ui.mono : ''}`} data-testid={testId}>
          {children}
        </span>
      }
    >
      <span className={ui.label}>{label}</span>
    </List.Item>
  );
}

/**
 * Back from the provider's sell checkout (?transactionId=...): the server reads that transaction
 * from the provider (never trusting the URL) and sends the coins. Once per visit.
 */
function useSellReturn(order: RampOrder | undefined, transactionId: string | null) {
  const client = useQueryClient();
  const errorMessage = useErrorMessage();
  const sent = useRef(false);
  useEffect(() => {
    if (!order || !transactionId || sent.current || order.side !== 'sell' || order.state !== 'pending') return;
    sent.current = true;
    sellDeposit(order.id, transactionId)
      .then((updated) => client.setQueryData(rampKeys.order(order.id), updated))
      .catch((err: unknown) => toast.fail(errorMessage(err)));
  }, [order, transactionId, client, errorMessage]);
}

function Details({ order }: { order: RampOrder }) {
  const { t, i18n } = useTranslation(NAMESPACE);
  const format = useAmountFormat();
  const catalogue = useCatalogue();
  const coin = coinDisplay(order.coin, catalogue.data?.coins ?? []);
  const network = networkLabel(
    catalogue.data?.networks.find((n) => n.code === order.network),
    order.network,
    order.coin,
  );
  const fiat = (minor: string) => formatFiat(BigInt(minor), order.fiat, format.locale);
  const when = (iso: string) => new Date(iso).toLocaleString(i18n.language);
  return (
    <>
      <List>
        <Row label={t('ramp.detail.type')} testId="ramp-detail-side">
          {t(`ramp.${order.side}`)}
        </Row>
        <Row label={t('ramp.detail.status')} testId="ramp-detail-state">
          <RampStatusTag state={order.state} />
        </Row>
        <Row label={t('ramp.coin')} testId="ramp-detail-coin">
          {order.coin} · {network}
        </Row>
        <Row label={order.side === 'buy' ? t('ramp.youPay') : t('ramp.youReceive')} testId="ramp-detail-fiat">
          {fiat(order.fiatAmountMinor)}
        </Row>
        <Row label={order.side === 'buy' ? t('ramp.youGet') : t('ramp.youSell')} testId="ramp-detail-crypto">
          <TapAmount minor={order.cryptoAmountMinor} coin={coin} code={order.coin} />
        </Row>
        <Row label={t('ramp.fees')} testId="ramp-detail-fee">
          {fiat(order.feeFiatMinor)}
        </Row>
        {order.side === 'sell' ? (
          <Row label={t('ramp.networkFee')} testId="ramp-detail-network-fee">
            <TapAmount minor={order.networkFeeMinor} coin={coin} code={order.coin} rounding="up" />
          </Row>
        ) : null}
        <Row label={t('ramp.detail.method')} testId="ramp-detail-method">
          {order.side === 'buy' ? t(`ramp.method.${order.method}`) : t(`payouts.kind.${order.method}`)}
        </Row>
        {order.walletAddress ? (
          <Row label={t('ramp.detail.wallet')} testId="ramp-detail-wallet" mono>
            {order.walletAddress}
          </Row>
        ) : null}
        {order.depositAddress ? (
          <Row label={t('ramp.detail.providerAddress')} testId="ramp-detail-provider-address" mono>
            {order.depositAddress}
          </Row>
        ) : null}
        {order.providerTransactionId ? (
          <Row label={t('ramp.detail.providerId')} testId="ramp-detail-provider-id" mono>
            {order.providerTransactionId}
          </Row>
        ) : null}
        {order.txHash ? (
          <Row label={t('ramp.detail.txHash')} testId="ramp-detail-tx" mono>
            {order.txHash}
          </Row>
        ) : null}
        {order.deposit ? (
          <Row label={t('ramp.detail.credited')} testId="ramp-detail-deposit">
            {t(`ramp.deposit.${order.deposit.state}`)}
          </Row>
        ) : null}
        {order.transfer ? (
          <Row label={t('ramp.detail.transfer')} testId="ramp-detail-transfer">
            {t(`ramp.transfer.${order.transfer.state}`)}
          </Row>
        ) : null}
        {order.reason ? (
          <Row label={t('ramp.detail.reason')} testId="ramp-detail-reason">
            <FailureReason reason={order.reason} />
          </Row>
        ) : null}
        <Row label={t('ramp.detail.created')} testId="ramp-detail-created">
          {when(order.createdAt)}
        </Row>
        <Row label={t('ramp.detail.orderId')} testId="ramp-detail-id" mono>
          {order.id}
        </Row>
      </List>
      <section className={ui.card}>
        <span className={ui.label}>{t('ramp.detail.timeline')}</span>
        <Steps direction="vertical" current={order.events.length - 1} data-testid="ramp-timeline">
          {order.events.map((e, i) => (
            <Steps.Step key={`${e.state}-${i}`} title={t(`ramp.state.${e.state}`)} description={when(e.at)} />
          ))}
        </Steps>
      </section>
    </>
  );
}

/** /buySell/order?id=: one buy or sell, every field and its status timeline, re-read until final. */
export default function OrderScreen() {
  const { t } = useTranslation(NAMESPACE);
  const [params] = useSearchParams();
  const id = params.get('id') ?? '';
  const order = useRampOrder(id, POLL_MS);
  useSellReturn(order.data, params.get('transactionId'));
  let body = <LoadingState />;
  // A link without an id: nothing to ask for (the query is off), so nothing to show or retry.
  if (id === '') body = <EmptyState />;
  else if (order.isError) body = <ErrorState onRetry={() => void order.refetch()} />;
  else if (order.data) {
    const o = order.data;
    body = (
      <div className={ui.body} data-testid="ramp-order">
        {o.sandbox ? (
          <Tag color="warning" className={extra.sandbox}>
            {t('ramp.sandbox')}
          </Tag>
        ) : null}
        {o.side === 'buy' && o.checkoutUrl && !params.get('transactionId') ? (
          <Button
            block
            color="primary"
            data-testid="ramp-continue"
            onClick={() => goToCheckout.assign(o.checkoutUrl ?? '')}
          >
            {t('ramp.continueCheckout')}
          </Button>
        ) : null}
        {o.side === 'sell' && o.state === 'pending' && !params.get('transactionId') ? (
          <PendingSellActions order={o} />
        ) : null}
        <Details order={o} />
      </div>
    );
  }
  return <Page title={t('ramp.detailTitle')}>{body}</Page>;
}
