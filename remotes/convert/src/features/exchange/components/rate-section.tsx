import { useErrorMessage } from '@cw/shared-state/errors';
import { useTranslation } from '@cw/shared-state/i18n';
import { useAmountFormat } from '@cw/shared-state/money';
import { ChipSelect } from '@cw/shared-ui/chip-select';
import { NAMESPACE } from '../../../i18n.ts';
import { RateText } from '../../../lib/rate-text.tsx';
import * as ui from '../../../lib/trade.module.css';
import type { ExchangeRate, RateType } from '../api/exchange-api.ts';
import type { CataloguePairs } from '../hooks/use-catalogue-pairs.ts';
import type { ExchangeForm } from '../hooks/use-exchange-form.ts';

/** The estimate's rows: rate, service charge and network fee (rounded up), and what arrives. */
function EstimateRows({ quote, pairs, form }: { quote: ExchangeRate; pairs: CataloguePairs; form: ExchangeForm }) {
  const { t } = useTranslation(NAMESPACE);
  const { display } = useAmountFormat();
  const { sendCoin, receiveCoin } = form;
  const float = quote.rateType === 'float';
  const receiveDisplay = pairs.displayOf(receiveCoin);
  return (
    <div data-testid="exchange-estimate">
      <div className={ui.row}>
        <span className={ui.label}>{t('exchange.rate')}</span>
        <RateText from={sendCoin} to={receiveCoin} rate={quote.rate} exact={!float} testId="exchange-rate" />
      </div>
      <div className={ui.row}>
        <span className={ui.label}>{t('exchange.serviceCharge')}</span>
        <span>
          {display(quote.serviceChargeMinor, receiveDisplay, 'up')} {receiveCoin}
        </span>
      </div>
      <div className={ui.row}>
        <span className={ui.label}>{t('exchange.networkFee')}</span>
        <span>
          {display(quote.networkFeeMinor, receiveDisplay, 'up')} {receiveCoin}
        </span>
      </div>
      <div className={ui.row}>
        <span className={ui.label}>{t('exchange.youGet')}</span>
        <span className={ui.strong} data-testid="exchange-estimate-receive">
          {float ? '≈ ' : ''}
          {display(quote.estimatedReceiveMinor, receiveDisplay)} {receiveCoin}
        </span>
      </div>
    </div>
  );
}

/** Fixed or float, what each means, and the estimate for the chosen one. */
export function RateSection({ form, pairs }: { form: ExchangeForm; pairs: CataloguePairs }) {
  const { t } = useTranslation(NAMESPACE);
  const errorMessage = useErrorMessage();
  const { rateType } = form.values;
  return (
    <section className={ui.card}>
      <span className={ui.label}>{t('exchange.rateType')}</span>
      <ChipSelect
        testId="exchange-rate-type"
        columns={2}
        options={[
          { label: t('exchange.fixed'), value: 'fixed' },
          { label: t('exchange.float'), value: 'float' },
        ]}
        value={rateType}
        onChange={(v) => form.set.rateType(v as RateType)}
      />
      <p className={ui.muted}>{rateType === 'fixed' ? t('exchange.fixedHint') : t('exchange.floatHint')}</p>
      {form.estimate.isError ? <p className={ui.error}>{errorMessage(form.estimate.error)}</p> : null}
      {form.quote ? <EstimateRows quote={form.quote} pairs={pairs} form={form} /> : null}
    </section>
  );
}
