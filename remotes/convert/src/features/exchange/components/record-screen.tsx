import { useTranslation } from '@cw/shared-state/i18n';
import { useAmountFormat } from '@cw/shared-state/money';
import { useSearchParams } from '@cw/shared-state/router';
import { TapAmount } from '@cw/shared-ui/amount';
import { Page } from '@cw/shared-ui/page';
import { EmptyState, ErrorState, LoadingState } from '@cw/shared-ui/states';
import { List } from 'antd-mobile';
import type { ReactNode } from 'react';
import { NAMESPACE } from '../../../i18n.ts';
import * as ui from '../../../lib/trade.module.css';
import type { ExchangeOrder } from '../api/exchange-api.ts';
import { useExchangeOrder } from '../api/exchange-queries.ts';
import { type CataloguePairs, useCataloguePairs } from '../hooks/use-catalogue-pairs.ts';
import { StatusTag } from './status-tag.tsx';

const POLL_MS = 5000;

interface RowProps {
  label: string;
  testId: string;
  children: ReactNode;
  /** Addresses, hashes and ids: monospace, broken anywhere. */
  mono?: boolean;
}

function Row({ label, testId, children, mono = false }: RowProps) {
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

interface RecordProps {
  order: ExchangeOrder;
  pairs: CataloguePairs;
}

/** Coins, amounts (what arrived, or ≈ before), rate type, rate, and the fees (rounded up). */
function AmountRows({ order, pairs }: RecordProps) {
  const { t } = useTranslation(NAMESPACE);
  const { rate } = useAmountFormat();
  const receive = pairs.displayOf(order.receiveCoin);
  return (
    <>
      <Row label={t('exchange.record.sendCoin')} testId="record-send-coin">
        {order.sendCoin} ({pairs.networkLabel(order.sendNetwork, order.sendCoin)})
      </Row>
      <Row label={t('exchange.record.receiveCoin')} testId="record-receive-coin">
        {order.receiveCoin} ({pairs.networkLabel(order.receiveNetwork, order.receiveCoin)})
      </Row>
      <Row label={t('exchange.record.sendAmount')} testId="record-send-amount">
        <TapAmount
          minor={order.depositAmountMinor ?? order.sendAmountMinor}
          coin={pairs.displayOf(order.sendCoin)}
          code={order.sendCoin}
        />
      </Row>
      <Row label={t('exchange.record.receiveAmount')} testId="record-receive-amount">
        {order.receiveAmountMinor ? '' : '≈ '}
        <TapAmount
          minor={order.receiveAmountMinor ?? order.estimatedReceiveMinor}
          coin={receive}
          code={order.receiveCoin}
        />
      </Row>
      <Row label={t('exchange.record.rateType')} testId="record-rate-type">
        {order.rateType === 'fixed' ? t('exchange.fixed') : t('exchange.float')}
      </Row>
      <Row label={t('exchange.rate')} testId="record-rate">
        1 {order.sendCoin} = {rate(order.finalRate ?? order.rate)} {order.receiveCoin}
      </Row>
      <Row label={t('exchange.serviceCharge')} testId="record-service-charge">
        <TapAmount minor={order.serviceChargeMinor} coin={receive} code={order.receiveCoin} rounding="up" />
      </Row>
      <Row label={t('exchange.networkFee')} testId="record-network-fee">
        <TapAmount minor={order.networkFeeMinor} coin={receive} code={order.receiveCoin} rounding="up" />
      </Row>
    </>
  );
}

/** Addresses, times and transaction hashes; where a refund went. */
function TrailRows({ order }: { order: ExchangeOrder }) {
  const { t, i18n } = useTranslation(NAMESPACE);
  const time = (iso: string | null) => (iso ? new Date(iso).toLocaleString(i18n.language) : '—');
  const dash = (value: string | null) => value ?? '—';
  const refunded = order.status === 'refunded';
  return (
    <>
      <Row label={t('exchange.record.sendAddress')} testId="record-send-address" mono>
        {dash(order.depositAddress)}
      </Row>
      <Row label={t('exchange.record.receiveAddress')} testId="record-receive-address" mono>
        {order.receiveAddress}
      </Row>
      <Row label={t('exchange.record.refundAddress')} testId="record-refund-address" mono>
        {dash(order.refundAddress)}
      </Row>
      <Row label={t('exchange.record.createdAt')} testId="record-created-at">
        {time(order.createdAt)}
      </Row>
      <Row label={t('exchange.record.sendAt')} testId="record-send-at">
        {time(order.sendAt)}
      </Row>
      <Row label={t('exchange.record.receiveAt')} testId="record-receive-at">
        {time(order.receiveAt)}
      </Row>
      {order.deadlineAt ? (
        <Row label={t('exchange.record.deadline')} testId="record-deadline">
          {time(order.deadlineAt)}
        </Row>
      ) : null}
      <Row label={t('exchange.record.depositHash')} testId="record-deposit-hash" mono>
        {dash(order.depositTxHash)}
      </Row>
      <Row label={t('exchange.record.payoutHash')} testId="record-payout-hash" mono>
        {dash(order.payoutTxHash)}
      </Row>
      {refunded ? (
        <Row
          label={t('exchange.record.refundedTo')}
          testId="record-refunded-to"
          mono={order.refundedTo === 'address' && order.payoutAddress !== null}
        >
          {order.refundedTo === 'address' && order.payoutAddress !== null
            ? order.payoutAddress
            : t('exchange.record.refundedToWallet')}
        </Row>
      ) : null}
      {refunded && order.refundFailedAt ? (
        // The refund transaction failed or reverted: the signer credited the amount to the wallet balance.
        <Row label={t('exchange.record.refundFailed')} testId="record-refund-failed">
          {t('exchange.record.refundFailedText', { time: time(order.refundFailedAt) })}
        </Row>
      ) : null}
    </>
  );
}

/** /exchange/record?id=: every field of the order's record. */
export default function RecordScreen() {
  const { t } = useTranslation(NAMESPACE);
  const [params] = useSearchParams();
  const id = params.get('id') ?? '';
  const { pairs } = useCataloguePairs();
  const order = useExchangeOrder(id, POLL_MS);
  const data = order.data;

  let body = null;
  // A link without an id: nothing to ask for (the query is off), so nothing to show or retry.
  if (id === '') body = <EmptyState />;
  else if (order.isError) body = <ErrorState onRetry={() => void order.refetch()} />;
  else if (!data || !pairs) body = <LoadingState />;
  else
    body = (
      <List data-testid="exchange-record">
        <List.Item extra={<StatusTag status={data.status} />}>
          <span className={ui.label}>{t('exchange.statusLabel')}</span>
        </List.Item>
        <Row label={t('exchange.record.id')} testId="record-id" mono>
          {data.id}
        </Row>
        <AmountRows order={data} pairs={pairs} />
        <TrailRows order={data} />
      </List>
    );
  return <Page title={t('exchange.recordTitle')}>{body}</Page>;
}
