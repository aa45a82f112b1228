import { useTranslation } from '@cw/shared-state/i18n';
import { type CoinDisplay, countdown, useAmountFormat } from '@cw/shared-state/money';
import { formatFiat } from '@cw/shared-state/settings';
import { Button } from 'antd-mobile';
import { NAMESPACE } from '../../../i18n.ts';
import * as ui from '../../../lib/trade.module.css';
import type { RampForm } from '../hooks/use-ramp-form.ts';
import * as extra from './ramp.module.css';

interface Props {
  form: RampForm;
  coin: CoinDisplay;
  error: string | null;
}

/** The quote as the provider gave it: what is paid, the fees, what arrives, and how long it holds. */
export function QuotePanel({ form, coin, error }: Props) {
  const { t } = useTranslation(NAMESPACE);
  const format = useAmountFormat();
  const q = form.quote;
  const fiat = (minor: string) => (q ? formatFiat(BigInt(minor), q.fiat, format.locale) : '');
  const crypto = (minor: string, rounding: 'up' | 'down' = 'down') =>
    `${format.display(minor, coin, rounding)} ${q?.coin ?? ''}`;
  let body = null;
  if (error)
    body = (
      <p className={ui.error} role="alert" data-testid="ramp-quote-error">
        {error}
      </p>
    );
  else if (!q) body = <p className={ui.muted}>{form.pending ? t('ramp.quoting') : t('ramp.enterAmount')}</p>;
  else
    body = (
      <>
        {(q.side === 'buy'
          ? [
              ['ramp.youPay', fiat(q.fiatAmountMinor), 'ramp-quote-pay'],
              ['ramp.fees', fiat(q.feeFiatMinor), 'ramp-quote-fee'],
              ['ramp.youGet', crypto(q.cryptoAmountMinor), 'ramp-quote-get'],
            ]
          : [
              ['ramp.youSell', crypto(q.cryptoAmountMinor), 'ramp-quote-sell'],
              ['ramp.networkFee', crypto(q.networkFeeMinor, 'up'), 'ramp-quote-network-fee'],
              ['ramp.fees', fiat(q.feeFiatMinor), 'ramp-quote-fee'],
              ['ramp.youReceive', fiat(q.fiatAmountMinor), 'ramp-quote-receive'],
            ]
        ).map(([label, value, testId]) => (
          <div className={ui.row} key={testId}>
            <span className={ui.label}>{t(label as string)}</span>
            <span className={ui.strong} data-testid={testId}>
              {value}
            </span>
          </div>
        ))}
        <p className={ui.muted} data-testid="ramp-quote-expiry">
          {t('ramp.expiresIn', { time: countdown(q.expiresAt, Math.max(form.now, Date.now())).text })}
        </p>
      </>
    );
  return (
    <section className={ui.card} aria-live="polite" data-testid="ramp-quote">
      {body}
      {q && form.needsAccept ? (
        <div className={extra.notice} role="alert" data-testid="ramp-rate-updated">
          {t('ramp.rateUpdated')}
          <Button size="small" color="primary" data-testid="ramp-accept-rate" onClick={form.accept}>
            {t('ramp.acceptRate')}
          </Button>
        </div>
      ) : null}
    </section>
  );
}
