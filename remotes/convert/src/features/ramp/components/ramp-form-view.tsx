import { type Catalogue, networkLabel } from '@cw/shared-state/catalogue';
import { useCodeMessage, useErrorMessage } from '@cw/shared-state/errors';
import { useTranslation } from '@cw/shared-state/i18n';
import { coinDisplay, useAmountFormat } from '@cw/shared-state/money';
import { useNavigate } from '@cw/shared-state/router';
import { formatFiat } from '@cw/shared-state/settings';
import { ChipSelect } from '@cw/shared-ui/chip-select';
import { NumberInput } from '@cw/shared-ui/number-input';
import { Button, Checkbox, Tag } from 'antd-mobile';
import { useState } from 'react';
import { NAMESPACE } from '../../../i18n.ts';
import { methodSummary, usePaymentMethods } from '../../../lib/payment-methods.ts';
import * as ui from '../../../lib/trade.module.css';
import { TradeSwitch } from '../../../lib/trade-switch.tsx';
import type { RampOptions } from '../api/ramp-api.ts';
import { NO_VERIFICATION } from '../hooks/sell-verification.ts';
import { FIAT_DECIMALS, pairKey, type RampFormInit, useRampForm } from '../hooks/use-ramp-form.ts';
import { useSubmit } from '../hooks/use-submit.ts';
import { QuotePanel } from './quote-panel.tsx';
import * as extra from './ramp.module.css';
import { SellVerificationFields } from './sell-verification.tsx';

interface Props {
  options: RampOptions;
  catalogue: Catalogue;
  init: RampFormInit;
  /** Available balance per coin (sell). */
  available: (coin: string) => string | null;
}

/** Buy | Sell, coin, amount, method, the quote with its expiry, terms, and on to the checkout. */
export function RampFormView({ options, catalogue, init, available }: Props) {
  const { t } = useTranslation(NAMESPACE);
  const navigate = useNavigate();
  const errorMessage = useErrorMessage();
  const codeMessage = useCodeMessage();
  const format = useAmountFormat();
  const decimalsOf = (coin: string) => catalogue.coins.find((c) => c.code === coin)?.decimals ?? 0;
  const form = useRampForm(options, init, decimalsOf, format.locale);
  const methods = usePaymentMethods();
  const { values, set } = form;
  const coin = values.pair.split('/')[0] ?? '';
  const display = coinDisplay(coin, catalogue.coins);
  const activeMethods = (methods.data?.items ?? []).filter((m) => m.active && options.payoutKinds.includes(m.kind));
  const [verification, setVerification] = useState(NO_VERIFICATION);
  const { submit, pending } = useSubmit(form, methods.data?.items ?? [], verification);
  const buy = values.side === 'buy';
  const balance = available(coin);
  const quoteError = form.quoteQuery.isError && form.request ? errorMessage(form.quoteQuery.error) : null;
  const sellNeedsMethod = !buy && values.payoutMethodId === '' && !(form.quote?.payoutKinds.join() === 'chat_app');
  const overBalance =
    !buy && form.request !== null && balance !== null && form.quote !== null
      ? BigInt(form.quote.cryptoAmountMinor) + BigInt(form.quote.networkFeeMinor) > BigInt(balance)
      : false;

  return (
    <div className={ui.body} data-testid="ramp-screen">
      <TradeSwitch current="buySell" />
      {options.sandbox ? (
        <Tag color="warning" className={extra.sandbox} data-testid="ramp-sandbox">
          {t('ramp.sandbox')}
        </Tag>
      ) : null}
      <ChipSelect
        testId="ramp-side"
        columns={2}
        options={[
          { label: t('ramp.buy'), value: 'buy' },
          { label: t('ramp.sell'), value: 'sell' },
        ]}
        value={values.side}
        onChange={(side) => set('side', side as 'buy' | 'sell')}
      />
      <section className={ui.card}>
        <span className={ui.label}>{t('ramp.coin')}</span>
        <ChipSelect
          testId="ramp-coin"
          columns={2}
          options={options.pairs.map((p) => ({
            label: `${p.coin} · ${networkLabel(
              catalogue.networks.find((n) => n.code === p.network),
              p.network,
              p.coin,
            )}`,
            value: pairKey(p),
          }))}
          value={values.pair}
          onChange={(pair) => set('pair', pair)}
        />
        <label className={ui.label} htmlFor="ramp-amount">
          {buy ? t('ramp.amountFiat', { fiat: options.fiat }) : t('ramp.amountCoin', { coin })}
        </label>
        <div className={extra.amountRow}>
          <NumberInput
            id="ramp-amount"
            className={ui.input}
            data-testid="ramp-amount"
            decimals={buy ? FIAT_DECIMALS : decimalsOf(coin)}
            value={values.amount}
            onChange={(amount) => set('amount', amount)}
            placeholder={t('ramp.amountPlaceholder')}
          />
          <span className={extra.unit}>{buy ? options.fiat : coin}</span>
        </div>
        {buy && options.minimumFiatMinor ? (
          <p className={ui.muted} data-testid="ramp-minimum">
            {t('ramp.minimum', {
              amount: formatFiat(BigInt(options.minimumFiatMinor), options.fiat ?? 'INR', format.locale),
            })}
          </p>
        ) : null}
        {!buy && balance !== null ? (
          <p className={ui.muted} data-testid="ramp-available">
            {t('ramp.available', { amount: `${format.display(balance, display)} ${coin}` })}
          </p>
        ) : null}
        {overBalance ? (
          <p className={ui.error} role="alert" data-testid="ramp-amount-error">
            {codeMessage('AMOUNT_EXCEEDS_AVAILABLE')}
          </p>
        ) : null}
      </section>
      <section className={ui.card}>
        <span className={ui.label}>{buy ? t('ramp.payWith') : t('ramp.payoutTo')}</span>
        {buy ? (
          <ChipSelect
            testId="ramp-method"
            columns={2}
            options={options.buyMethods.map((m) => ({ label: t(`ramp.method.${m}`), value: m }))}
            value={values.method}
            onChange={(m) => set('method', m)}
          />
        ) : (
          <ChipSelect
            testId="ramp-payout"
            columns={1}
            options={activeMethods.map((m) => ({
              label: `${t(`payouts.kind.${m.kind}`)} · ${methodSummary(m, t)}`,
              value: m.id,
            }))}
            value={values.payoutMethodId}
            onChange={(id) => {
              set('payoutMethodId', id);
              const kind = activeMethods.find((m) => m.id === id)?.kind;
              if (kind) set('method', kind);
            }}
          />
        )}
        {!buy && methods.data && activeMethods.length === 0 ? (
          <p className={ui.muted} data-testid="ramp-no-payout">
            {t('ramp.noPayoutMethod')}
          </p>
        ) : null}
        {!buy ? (
          <Button
            size="small"
            fill="none"
            color="primary"
            data-testid="ramp-manage-methods"
            onClick={() => void navigate('/buySell/paymentMethods')}
          >
            {t('ramp.manageMethods')}
          </Button>
        ) : null}
      </section>
      <QuotePanel form={form} coin={display} error={quoteError} />
      {buy ? null : <SellVerificationFields value={verification} onChange={setVerification} />}
      <Checkbox data-testid="ramp-terms" checked={values.terms} onChange={(v) => set('terms', v)}>
        {t('ramp.terms')}
      </Checkbox>
      <Button
        block
        color="primary"
        size="large"
        data-testid="ramp-submit"
        disabled={!form.quote || !values.terms || form.needsAccept || pending || sellNeedsMethod || overBalance}
        loading={pending}
        onClick={() => void submit()}
      >
        {buy ? t('ramp.submitBuy') : t('ramp.submitSell')}
      </Button>
    </div>
  );
}
