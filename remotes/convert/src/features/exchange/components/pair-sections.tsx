import { useTranslation } from '@cw/shared-state/i18n';
import { useAmountFormat } from '@cw/shared-state/money';
import { ChipSelect } from '@cw/shared-ui/chip-select';
import { CoinIcon, NetworkIcon } from '@cw/shared-ui/coin-icon';
import { Input } from 'antd-mobile';
import { NAMESPACE } from '../../../i18n.ts';
import * as ui from '../../../lib/trade.module.css';
import type { CataloguePairs } from '../hooks/use-catalogue-pairs.ts';
import type { ExchangeForm } from '../hooks/use-exchange-form.ts';

interface SectionProps {
  form: ExchangeForm;
  pairs: CataloguePairs;
}

const coinOptions = (coins: string[]) => coins.map((c) => ({ label: c, value: c, icon: <CoinIcon coin={c} /> }));

const networkOptions = (pairs: CataloguePairs, networks: string[], coin: string) =>
  networks.map((n) => ({ label: pairs.networkLabel(n, coin), value: n, icon: <NetworkIcon network={n} /> }));

/** What is sent: coin, network and amount, with the pair's limits once a quote is in. */
export function SendSection({ form, pairs }: SectionProps) {
  const { t } = useTranslation(NAMESPACE);
  const { display } = useAmountFormat();
  const { sendCoin, quote } = form;
  return (
    <section className={ui.card}>
      <span className={ui.label}>{t('exchange.send')}</span>
      <ChipSelect
        testId="exchange-send-coin"
        columns={4}
        options={coinOptions(pairs.sendCoins)}
        value={sendCoin}
        onChange={form.set.sendCoin}
      />
      <span className={ui.label}>{t('exchange.network')}</span>
      <ChipSelect
        testId="exchange-send-network"
        columns={2}
        options={networkOptions(pairs, form.sendNetworks, sendCoin)}
        value={form.send}
        onChange={form.set.sendNetwork}
      />
      <span className={ui.label}>{t('exchange.amount', { coin: sendCoin })}</span>
      <Input
        className={ui.input}
        data-testid="exchange-amount"
        inputMode="decimal"
        placeholder={t('exchange.amountPlaceholder')}
        value={form.values.amountText}
        onChange={form.set.amountText}
      />
      {form.values.amountText !== '' && form.amountMinor === null ? (
        <p className={ui.error}>{t('exchange.amountInvalid')}</p>
      ) : null}
      {quote ? (
        <p className={ui.muted} data-testid="exchange-limits">
          {t('exchange.limits', {
            min: display(quote.minAmountMinor, pairs.displayOf(sendCoin), 'up'),
            max: display(quote.maxAmountMinor, pairs.displayOf(sendCoin)),
            coin: sendCoin,
          })}
        </p>
      ) : null}
    </section>
  );
}

/** What is received: coin and network (never the same coin on the same network as sent). */
export function ReceiveSection({ form, pairs }: SectionProps) {
  const { t } = useTranslation(NAMESPACE);
  return (
    <section className={ui.card}>
      <span className={ui.label}>{t('exchange.receive')}</span>
      <ChipSelect
        testId="exchange-receive-coin"
        columns={4}
        options={coinOptions(pairs.receiveCoins)}
        value={form.receiveCoin}
        onChange={form.set.receiveCoin}
      />
      <span className={ui.label}>{t('exchange.network')}</span>
      <ChipSelect
        testId="exchange-receive-network"
        columns={2}
        options={networkOptions(pairs, form.receiveNetworks, form.receiveCoin)}
        value={form.receive}
        onChange={form.set.receiveNetwork}
      />
    </section>
  );
}
