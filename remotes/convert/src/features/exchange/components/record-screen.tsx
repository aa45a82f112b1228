import { useTranslation } from '@cw/shared-state/i18n';
import { useAmountFormat } from '@cw/shared-state/money';
import { useSearchParams } from '@cw/shared-state/router';
import { TapAmount } from '@cw/shared-ui/amount';
import { Page } from '@cw/shared-ui/page';
import { ErrorState, LoadingState } from '@cw/shared-ui/states';
import { List } from 'antd-mobile';
import type { ReactNode } from 'react';
import { NAMESPACE } from '../../../i18n.ts';
import { useExchangeOrder } from '../api/exchange-queries.ts';
import { useCataloguePairs } from '../hooks/use-catalogue-pairs.ts';
import * as ui from './exchange.module.css';
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

/** /exchange/record?id=: every field of the order's record. */
export default function RecordScreen() {
  const { t, i18n } = useTranslation(NAMESPACE);
  const { rate } = useAmountFormat();
  const [params] = useSearchParams();
  const id = params.get('id') ?? '';
  const { pairs } = useCataloguePairs();
  const order = useExchangeOrder(id, POLL_MS);
  const data = order.data;
  const time = (iso: string | null) => (iso ? new Date(iso).toLocaleString(i18n.language) : '—');
  const dash = (value: string | null) => value ?? '—';

  let body = null;
  if (order.isError) body = <ErrorState onRetry={() => void order.refetch()} />;
  else if (!data || !pairs) body = <LoadingState />;
  else {
    const receiveAmount = data.receiveAmountMinor ?? data.estimatedReceiveMinor;
    body = (
      <List data-testid="exchange-record">
        <List.Item extra={<StatusTag status={data.status} />}>
          <span className={ui.label}>{t('exchange.statusLabel')}</span>
        </List.Item>
        <Row label={t('exchange.record.id')} testId="record-id" mono>
          {data.id}
        </Row>
        <Row label={t('exchange.record.sendCoin')} testId="record-send-coin">
          {data.sendCoin} ({pairs.networkLabel(data.sendNetwork, data.sendCoin)})
        </Row>
        <Row label={t('exchange.record.receiveCoin')} testId="record-receive-coin">
          {data.receiveCoin} ({pairs.networkLabel(data.receiveNetwork, data.receiveCoin)})
        </Row>
        <Row label={t('exchange.record.sendAmount')} testId="record-send-amount">
          <TapAmount
            minor={data.depositAmountMinor ?? data.sendAmountMinor}
            coin={pairs.displayOf(data.sendCoin)}
            code={data.sendCoin}
          />
        </Row>
        <Row label={t('exchange.record.receiveAmount')} testId="record-receive-amount">
          {data.receiveAmountMinor ? '' : '≈ '}
          <TapAmount minor={receiveAmount} coin={pairs.displayOf(data.receiveCoin)} code={data.receiveCoin} />
        </Row>
        <Row label={t('exchange.record.rateType')} testId="record-rate-type">
          {data.rateType === 'fixed' ? t('exchange.fixed') : t('exchange.float')}
        </Row>
        <Row label={t('exchange.rate')} testId="record-rate">
          1 {data.sendCoin} = {rate(data.finalRate ?? data.rate)} {data.receiveCoin}
        </Row>
        <Row label={t('exchange.serviceCharge')} testId="record-service-charge">
          <TapAmount
            minor={data.serviceChargeMinor}
            coin={pairs.displayOf(data.receiveCoin)}
            code={data.receiveCoin}
            rounding="up"
          />
        </Row>
        <Row label={t('exchange.networkFee')} testId="record-network-fee">
          <TapAmount
            minor={data.networkFeeMinor}
            coin={pairs.displayOf(data.receiveCoin)}
            code={data.receiveCoin}
            rounding="up"
          />
        </Row>
        <Row label={t('exchange.record.sendAddress')} testId="record-send-address" mono>
          {dash(data.depositAddress)}
        </Row>
        <Row label={t('exchange.record.receiveAddress')} testId="record-receive-address" mono>
          {data.receiveAddress}
        </Row>
        <Row label={t('exchange.record.refundAddress')} testId="record-refund-address" mono>
          {dash(data.refundAddress)}
        </Row>
        <Row label={t('exchange.record.createdAt')} testId="record-created-at">
          {time(data.createdAt)}
        </Row>
        <Row label={t('exchange.record.sendAt')} testId="record-send-at">
          {time(data.sendAt)}
        </Row>
        <Row label={t('exchange.record.receiveAt')} testId="record-receive-at">
          {time(data.receiveAt)}
        </Row>
        {data.deadlineAt ? (
          <Row label={t('exchange.record.deadline')} testId="record-deadline">
            {time(data.deadlineAt)}
          </Row>
        ) : null}
        <Row label={t('exchange.record.depositHash')} testId="record-deposit-hash" mono>
          {dash(data.depositTxHash)}
        </Row>
        <Row label={t('exchange.record.payoutHash')} testId="record-payout-hash" mono>
          {dash(data.payoutTxHash)}
        </Row>
        {data.status === 'refunded' && !data.payoutAddress ? (
          <Row label={t('exchange.record.refundedTo')} testId="record-refunded-to">
            {t('exchange.record.refundedToWallet')}
          </Row>
        ) : null}
        {data.status === 'refunded' && data.payoutAddress ? (
          <Row label={t('exchange.record.refundedTo')} testId="record-refunded-to" mono>
            {data.payoutAddress}
          </Row>
        ) : null}
      </List>
    );
  }
  return <Page title={t('exchange.recordTitle')}>{body}</Page>;
}
