import { useTranslation } from '@cw/shared-state/i18n';
import { useAmountFormat } from '@cw/shared-state/money';
import { copyText } from '@cw/shared-ui/clipboard';
import { QrCode } from '@cw/shared-ui/qr-code';
import { Button, NoticeBar } from 'antd-mobile';
import { NAMESPACE } from '../../../i18n.ts';
import * as ui from '../../../lib/trade.module.css';
import type { ExchangeOrder } from '../api/exchange-api.ts';
import type { CataloguePairs } from '../hooks/use-catalogue-pairs.ts';
import { StatusTag } from './status-tag.tsx';

interface OrderProps {
  order: ExchangeOrder;
  pairs: CataloguePairs;
}

/** Status, what is sent and what arrives (≈ for a float rate until it is paid out). */
export function OrderSummary({ order, pairs }: OrderProps) {
  const { t } = useTranslation(NAMESPACE);
  const { amount } = useAmountFormat();
  return (
    <section className={ui.card}>
      <div className={ui.row}>
        <span className={ui.label}>{t('exchange.statusLabel')}</span>
        <StatusTag status={order.status} />
      </div>
      <div className={ui.row}>
        <span className={ui.label}>{t('exchange.send')}</span>
        <span className={ui.strong}>
          {amount(order.sendAmountMinor, pairs.decimalsOf(order.sendCoin))} {order.sendCoin} (
          {pairs.networkLabel(order.sendNetwork, order.sendCoin)})
        </span>
      </div>
      <div className={ui.row}>
        <span className={ui.label}>{t('exchange.youGet')}</span>
        <span>
          {order.rateType === 'float' ? '≈ ' : ''}
          {amount(order.receiveAmountMinor ?? order.estimatedReceiveMinor, pairs.decimalsOf(order.receiveCoin))}{' '}
          {order.receiveCoin} ({pairs.networkLabel(order.receiveNetwork, order.receiveCoin)})
        </span>
      </div>
    </section>
  );
}

/** Where to send: exactly this amount to this address (QR and text, copy). */
export function DepositCard({ order, pairs, address }: OrderProps & { address: string }) {
  const { t } = useTranslation(NAMESPACE);
  const { amount } = useAmountFormat();
  return (
    <section className={ui.card} data-testid="exchange-deposit-card">
      <p className={ui.muted}>
        {t('exchange.sendExactly', {
          amount: amount(order.sendAmountMinor, pairs.decimalsOf(order.sendCoin)),
          coin: order.sendCoin,
          network: pairs.networkLabel(order.sendNetwork, order.sendCoin),
        })}
      </p>
      <div className={ui.center}>
        <QrCode value={address} size={180} />
      </div>
      <span className={`${ui.mono} ${ui.strong}`} data-testid="exchange-deposit-address">
        {address}
      </span>
      <Button
        block
        fill="outline"
        color="primary"
        data-testid="exchange-copy-address"
        onClick={() => void copyText(address)}
      >
        {t('exchange.copyAddress')}
      </Button>
    </section>
  );
}

/** The deposit window ran out: say so and offer the same order again. */
export function TimeUpCard({ restarting, onRestart }: { restarting: boolean; onRestart: () => void }) {
  const { t } = useTranslation(NAMESPACE);
  return (
    <section className={ui.card} data-testid="exchange-time-up">
      <NoticeBar content={t('exchange.timeUp')} color="alert" />
      <Button block color="primary" data-testid="exchange-restart" loading={restarting} onClick={onRestart}>
        {t('exchange.restart')}
      </Button>
    </section>
  );
}
