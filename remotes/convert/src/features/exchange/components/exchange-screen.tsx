import { isValidAddress } from '@cw/shared-state/address';
import { isApiError } from '@cw/shared-state/api';
import { useErrorMessage } from '@cw/shared-state/errors';
import { useTranslation } from '@cw/shared-state/i18n';
import { parseAmount, useAmountFormat } from '@cw/shared-state/money';
import { useNavigate } from '@cw/shared-state/router';
import { ChipSelect } from '@cw/shared-ui/chip-select';
import { CoinIcon, NetworkIcon } from '@cw/shared-ui/coin-icon';
import { Page, PageLink } from '@cw/shared-ui/page';
import { ErrorState, LoadingState } from '@cw/shared-ui/states';
import { toast } from '@cw/shared-ui/toast';
import { Button, Checkbox, Input } from 'antd-mobile';
import { useEffect, useState } from 'react';
import { NAMESPACE } from '../../../i18n.ts';
import { TradeSwitch } from '../../trade/trade-switch.tsx';
import { type CoinCode, type NetworkCode, placeOrder, type RateType } from '../api/exchange-api.ts';
import * as ui from './exchange.module.css';
import { useCataloguePairs } from './use-catalogue-pairs.ts';
import { useExchangeEstimate } from './use-exchange-estimate.ts';

const ESTIMATE_DELAY_MS = 400;

function useDebounced<T>(value: T, delayMs: number): T {
  const [current, setCurrent] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setCurrent(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return current;
}

/** /exchange: what to send and receive, the amount, rate type, addresses and terms; places an order. */
export default function ExchangeScreen() {
  const { t } = useTranslation(NAMESPACE);
  const errorMessage = useErrorMessage();
  const navigate = useNavigate();
  const { pairs, isError, refetch } = useCataloguePairs();
  const [sendChoice, setSendCoin] = useState('USDT');
  const [sendNetwork, setSendNetwork] = useState('');
  const [receiveChoice, setReceiveCoin] = useState('BNB');
  const [receiveNetwork, setReceiveNetwork] = useState('');
  const [amountText, setAmountText] = useState('');
  const { display, rate, locale } = useAmountFormat();
  const [rateType, setRateType] = useState<RateType>('fixed');
  const [receiveAddress, setReceiveAddress] = useState('');
  const [refundAddress, setRefundAddress] = useState('');
  const [terms, setTerms] = useState(false);
  const [submitting, setSubmitting] = useState(false);

  // The choice if it is offered, else the first coin offered (the offer changes with the running chains).
  const pick = (choice: string, offered: readonly string[]) => (offered.includes(choice) ? choice : (offered[0] ?? ''));
  const sendCoin = pick(sendChoice, pairs?.sendCoins ?? []);
  const receiveCoin = pick(receiveChoice, pairs?.receiveCoins ?? []);
  const sendNetworks = pairs?.sendNetworks(sendCoin) ?? [];
  const send = sendNetworks.includes(sendNetwork as NetworkCode) ? sendNetwork : (sendNetworks[0] ?? '');
  const receiveNetworks = (pairs?.receiveNetworks(receiveCoin) ?? []).filter(
    (n) => !(receiveCoin === sendCoin && n === send),
  );
  const receive = receiveNetworks.includes(receiveNetwork as NetworkCode) ? receiveNetwork : (receiveNetworks[0] ?? '');
  const sendDecimals = pairs?.decimalsOf(sendCoin) ?? 0;
  const amountMinor = parseAmount(amountText, sendDecimals, locale);
  const pair = {
    sendCoin: sendCoin as CoinCode,
    sendNetwork: send as NetworkCode,
    receiveCoin: receiveCoin as CoinCode,
    receiveNetwork: receive as NetworkCode,
  };
  const estimateKey = useDebounced(
    amountMinor && amountMinor > 0n && send && receive ? { ...pair, amountMinor: amountMinor.toString() } : null,
    ESTIMATE_DELAY_MS,
  );
  // The estimate is the quote for the chosen rate type: a fixed estimate is the locked rate the order
  // will use (its rate id travels with the order), so what the screen shows is what is charged.
  const estimate = useExchangeEstimate(estimateKey, rateType);
  const current = amountMinor !== null && estimateKey?.amountMinor === amountMinor.toString();
  const quote = current && estimate.data?.rateType === rateType ? estimate.data : undefined;

  const receiveOk = receive !== '' && isValidAddress(receive, receiveAddress.trim());
  const refundGiven = refundAddress.trim() !== '';
  const refundOk = refundGiven ? isValidAddress(send, refundAddress.trim()) : rateType === 'float';
  const canSubmit =
    amountMinor !== null &&
    amountMinor > 0n &&
    receiveOk &&
    refundOk &&
    terms &&
    !submitting &&
    send &&
    receive &&
    (rateType === 'float' || quote !== undefined);

  async function submit() {
    if (!canSubmit || amountMinor === null) return;
    setSubmitting(true);
    try {
      const order = await placeOrder(
        {
          ...pair,
          amountMinor: amountMinor.toString(),
          rateType,
          receiveAddress: receiveAddress.trim(),
          ...(refundGiven ? { refundAddress: refundAddress.trim() } : {}),
        },
        quote,
      );
      void navigate(`/exchange/order?id=${order.id}`);
    } catch (error) {
      // A lock that ran out: show the new quote before anything is placed.
      if (isApiError(error) && error.code === 'EXCHANGE_RATE_EXPIRED') void estimate.refetch();
      toast.fail(errorMessage(error));
    } finally {
      setSubmitting(false);
    }
  }

  const records = (
    <PageLink data-testid="exchange-records" onClick={() => void navigate('/exchange/history')}>
      {t('exchange.records')}
    </PageLink>
  );

  if (!pairs) {
    return (
      <Page title={t('exchange.title')} right={records}>
        {isError ? <ErrorState onRetry={() => void refetch()} /> : <LoadingState />}
      </Page>
    );
  }

  const coinOptions = (coins: string[]) => coins.map((c) => ({ label: c, value: c, icon: <CoinIcon coin={c} /> }));
  const networkOptions = (networks: string[], coin: string) =>
    networks.map((n) => ({ label: pairs.networkLabel(n, coin), value: n, icon: <NetworkIcon network={n} /> }));
  return (
    <Page title={t('exchange.title')} right={records}>
      <div className={ui.body} data-testid="exchange-screen">
        <TradeSwitch current="exchange" />
        <section className={ui.card}>
          <span className={ui.label}>{t('exchange.send')}</span>
          <ChipSelect
            testId="exchange-send-coin"
            columns={4}
            options={coinOptions(pairs.sendCoins)}
            value={sendCoin}
            onChange={(c) => {
              setSendCoin(c);
              setSendNetwork('');
            }}
          />
          <span className={ui.label}>{t('exchange.network')}</span>
          <ChipSelect
            testId="exchange-send-network"
            columns={2}
            options={networkOptions(sendNetworks, sendCoin)}
            value={send}
            onChange={setSendNetwork}
          />
          <span className={ui.label}>{t('exchange.amount', { coin: sendCoin })}</span>
          <Input
            className={ui.input}
            data-testid="exchange-amount"
            inputMode="decimal"
            placeholder={t('exchange.amountPlaceholder')}
            value={amountText}
            onChange={setAmountText}
          />
          {amountText !== '' && amountMinor === null ? <p className={ui.error}>{t('exchange.amountInvalid')}</p> : null}
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

        <section className={ui.card}>
          <span className={ui.label}>{t('exchange.receive')}</span>
          <ChipSelect
            testId="exchange-receive-coin"
            columns={4}
            options={coinOptions(pairs.receiveCoins)}
            value={receiveCoin}
            onChange={(c) => {
              setReceiveCoin(c);
              setReceiveNetwork('');
            }}
          />
          <span className={ui.label}>{t('exchange.network')}</span>
          <ChipSelect
            testId="exchange-receive-network"
            columns={2}
            options={networkOptions(receiveNetworks, receiveCoin)}
            value={receive}
            onChange={setReceiveNetwork}
          />
        </section>

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
            onChange={(v) => setRateType(v as RateType)}
          />
          <p className={ui.muted}>{rateType === 'fixed' ? t('exchange.fixedHint') : t('exchange.floatHint')}</p>
          {estimate.isError ? <p className={ui.error}>{errorMessage(estimate.error)}</p> : null}
          {quote ? (
            <div data-testid="exchange-estimate">
              <div className={ui.row}>
                <span className={ui.label}>{t('exchange.rate')}</span>
                <span>
                  1 {sendCoin} {quote.rateType === 'float' ? '≈' : '='} {rate(quote.rate)} {receiveCoin}
                </span>
              </div>
              <div className={ui.row}>
                <span className={ui.label}>{t('exchange.serviceCharge')}</span>
                <span>
                  {display(quote.serviceChargeMinor, pairs.displayOf(receiveCoin), 'up')} {receiveCoin}
                </span>
              </div>
              <div className={ui.row}>
                <span className={ui.label}>{t('exchange.networkFee')}</span>
                <span>
                  {display(quote.networkFeeMinor, pairs.displayOf(receiveCoin), 'up')} {receiveCoin}
                </span>
              </div>
              <div className={ui.row}>
                <span className={ui.label}>{t('exchange.youGet')}</span>
                <span className={ui.strong} data-testid="exchange-estimate-receive">
                  {quote.rateType === 'float' ? '≈ ' : ''}
                  {display(quote.estimatedReceiveMinor, pairs.displayOf(receiveCoin))} {receiveCoin}
                </span>
              </div>
            </div>
          ) : null}
        </section>

        <section className={ui.card}>
          <span className={ui.label}>{t('exchange.receiveAddress', { coin: receiveCoin })}</span>
          <Input
            className={ui.input}
            data-testid="exchange-receive-address"
            placeholder={t('exchange.addressPlaceholder', {
              network: receive ? pairs.networkLabel(receive, receiveCoin) : '',
            })}
            value={receiveAddress}
            onChange={setReceiveAddress}
          />
          {receiveAddress.trim() !== '' && !receiveOk ? (
            <p className={ui.error} data-testid="exchange-receive-address-error">
              {t('exchange.addressInvalid')}
            </p>
          ) : null}
          <span className={ui.label}>
            {rateType === 'fixed' ? t('exchange.refundAddressRequired') : t('exchange.refundAddressOptional')}
          </span>
          <Input
            className={ui.input}
            data-testid="exchange-refund-address"
            placeholder={t('exchange.addressPlaceholder', { network: send ? pairs.networkLabel(send, sendCoin) : '' })}
            value={refundAddress}
            onChange={setRefundAddress}
          />
          {refundGiven && !isValidAddress(send, refundAddress.trim()) ? (
            <p className={ui.error}>{t('exchange.addressInvalid')}</p>
          ) : null}
        </section>

        <Checkbox data-testid="exchange-terms" checked={terms} onChange={setTerms}>
          {t('exchange.terms')}
        </Checkbox>
        <Button
          block
          color="primary"
          size="large"
          data-testid="exchange-submit"
          disabled={!canSubmit}
          loading={submitting}
          onClick={() => void submit()}
        >
          {t('exchange.submit')}
        </Button>
      </div>
    </Page>
  );
}
