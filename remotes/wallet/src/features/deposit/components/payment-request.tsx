import type { CatalogueView } from '@cw/shared-state/catalogue';
import { useTranslation } from '@cw/shared-state/i18n';
import { delocalizeAmount, localizeDecimal, useAmountFormat } from '@cw/shared-state/money';
import { copyText } from '@cw/shared-ui/clipboard';
import { NumberInput } from '@cw/shared-ui/number-input';
import { QrCode } from '@cw/shared-ui/qr-code';
import { Button } from 'antd-mobile';
import { useState } from 'react';
import { NAMESPACE } from '../../../i18n.ts';
import * as ui from '../../../lib/wallet-page.module.css';
import { type DepositTarget, depositTarget } from '../utils/deposit-target.ts';
import { paymentRequestUri } from '../utils/payment-request.ts';
import { walletAmount, walletAmountProblem } from '../utils/wallet-amount.ts';

function RequestForm({ target }: { target: DepositTarget }) {
  const { t } = useTranslation(NAMESPACE);
  const format = useAmountFormat();
  const [text, setText] = useState('');
  const decimals = target.view.decimalsOf(target.coin);
  const amount = walletAmount(text, decimals, target.chainDecimals);
  // No wallet is connected: the balance is the scanning wallet's business; the minimum is ours.
  const problem = text === '' ? null : walletAmountProblem(amount, target.minDepositMinor, null);
  const shown = (ledgerMinor: bigint) =>
    `${format.display(ledgerMinor, target.view.displayOf(target.coin))} ${target.coin}`;
  const uri =
    amount && !problem
      ? paymentRequestUri({
          chainId: target.chainId,
          depositAddress: target.depositAddress,
          token: target.token,
          amount: amount.chainAmount,
        })
      : null;
  return (
    <section className={`${ui.card} ${ui.field}`} data-testid="payment-request">
      <span className={ui.label}>{t('paymentRequest.amount')}</span>
      <NumberInput
        value={localizeDecimal(text, format.locale, { grouping: false })}
        onChange={(next) => setText(delocalizeAmount(next, format.locale))}
        locale={format.locale}
        decimals={decimals}
        placeholder={t('walletDeposit.placeholder', { min: shown(target.minDepositMinor) })}
        maxLength={40}
        data-testid="payment-request-amount"
      />
      {problem ? (
        <span className={ui.error} role="alert" data-testid="payment-request-problem">
          {t(`walletDeposit.${problem}`, { min: shown(target.minDepositMinor) })}
        </span>
      ) : null}
      {uri && amount ? (
        <>
          <div className={ui.row} style={{ justifyContent: 'center' }} data-testid="payment-request-qr">
            <QrCode value={uri} size={220} label={t('paymentRequest.qrLabel')} />
          </div>
          <p className={ui.muted} data-testid="payment-request-summary">
            {t('paymentRequest.summary', {
              amount: `${format.amount(amount.chainAmount, target.chainDecimals)} ${target.coin}`,
            })}
          </p>
          <a href={uri} className={ui.address} data-testid="payment-request-link">
            {uri}
          </a>
          <Button
            block
            fill="outline"
            color="primary"
            data-testid="payment-request-copy"
            onClick={() => void copyText(uri)}
          >
            {t('paymentRequest.copy')}
          </Button>
        </>
      ) : null}
    </section>
  );
}

/**
 * Beside the address QR on an EVM network: an EIP-681 payment request for a typed amount, which a phone
 * wallet scans (or opens as a link) to pre-fill the transfer to this user's deposit address. Nothing is
 * connected and the app asks no wallet for anything; the deposit watcher credits it as any deposit.
 */
export function PaymentRequest(props: { coin: string; network: string; address: string; view: CatalogueView }) {
  const { t } = useTranslation(NAMESPACE);
  const [open, setOpen] = useState(false);
  const target = depositTarget(props.view, props.coin, props.network, props.address);
  if (target === null || target === 'no-contract') return null;
  if (!open) {
    return (
      <Button block fill="outline" color="primary" data-testid="payment-request-open" onClick={() => setOpen(true)}>
        {t('paymentRequest.open')}
      </Button>
    );
  }
  return <RequestForm target={target} />;
}
