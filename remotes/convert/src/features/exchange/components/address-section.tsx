import { useTranslation } from '@cw/shared-state/i18n';
import { Input } from 'antd-mobile';
import { NAMESPACE } from '../../../i18n.ts';
import * as ui from '../../../lib/trade.module.css';
import type { CataloguePairs } from '../hooks/use-catalogue-pairs.ts';
import type { ExchangeForm } from '../hooks/use-exchange-form.ts';

/** Where the coins go, and where a refund goes (required for a fixed rate). */
export function AddressSection({ form, pairs }: { form: ExchangeForm; pairs: CataloguePairs }) {
  const { t } = useTranslation(NAMESPACE);
  const { receiveAddress, refundAddress } = form.addresses;
  const { send, sendCoin, receive, receiveCoin } = form;
  return (
    <section className={ui.card}>
      <span className={ui.label}>{t('exchange.receiveAddress', { coin: receiveCoin })}</span>
      <Input
        className={ui.input}
        data-testid="exchange-receive-address"
        placeholder={t('exchange.addressPlaceholder', {
          network: receive ? pairs.networkLabel(receive, receiveCoin) : '',
        })}
        value={receiveAddress}
        onChange={form.set.receiveAddress}
      />
      {receiveAddress.trim() !== '' && !form.receiveOk ? (
        <p className={ui.error} data-testid="exchange-receive-address-error">
          {t('exchange.addressInvalid')}
        </p>
      ) : null}
      <span className={ui.label}>
        {form.values.rateType === 'fixed' ? t('exchange.refundAddressRequired') : t('exchange.refundAddressOptional')}
      </span>
      <Input
        className={ui.input}
        data-testid="exchange-refund-address"
        placeholder={t('exchange.addressPlaceholder', { network: send ? pairs.networkLabel(send, sendCoin) : '' })}
        value={refundAddress}
        onChange={form.set.refundAddress}
      />
      {form.refundGiven && !form.refundValid ? <p className={ui.error}>{t('exchange.addressInvalid')}</p> : null}
    </section>
  );
}
