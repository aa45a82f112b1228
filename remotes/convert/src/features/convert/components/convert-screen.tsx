import { isApiError } from '@cw/shared-state/api';
import { useErrorMessage } from '@cw/shared-state/errors';
import { useTranslation } from '@cw/shared-state/i18n';
import {
  coinDisplay,
  delocalizeAmount,
  formatMinor,
  localizeDecimal,
  parseAmount,
  useAmountFormat,
} from '@cw/shared-state/money';
import { useNavigate, useSearchParams } from '@cw/shared-state/router';
import { CoinIcon } from '@cw/shared-ui/coin-icon';
import { NumberInput } from '@cw/shared-ui/number-input';
import { PageLink } from '@cw/shared-ui/page';
import { ErrorState, LoadingState } from '@cw/shared-ui/states';
import { toast } from '@cw/shared-ui/toast';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Tag } from 'antd-mobile';
import { type ReactNode, useEffect, useState } from 'react';
import { NAMESPACE } from '../../../i18n.ts';
import { TradeSwitch } from '../../trade/trade-switch.tsx';
import { type AcceptResult, acceptQuote, convertKeys, fetchBalances } from '../api/convert-api.ts';
import { useConvertCoins } from '../hooks/use-convert-coins.ts';
import { type ConvertCoin, type ConvertCoinInfo, decimalsOf, inputDecimals, isConvertCoin } from '../lib/coins.ts';
import * as styles from './convert-page.module.css';
import { ConvertPage, withQueryClient } from './convert-page.tsx';
import { ExpiredDialog } from './expired-dialog.tsx';
import { FiatLine } from './fiat-line.tsx';
import { PreviewSheet } from './preview-sheet.tsx';
import { useNow } from './use-now.ts';
import { type HeldQuote, holdQuote, useQuote } from './use-quote.ts';
import { useSessionStatus } from './use-signed-in.ts';

/** min/max of a CONVERT_AMOUNT_OUT_OF_RANGE error, in minor units. */
function rangeOf(error: unknown): { min: string; max: string } | null {
  if (!isApiError(error) || error.code !== 'CONVERT_AMOUNT_OUT_OF_RANGE' || !Array.isArray(error.details)) return null;
  const pick = (rule: string) =>
    (error.details as { rule?: string; message?: string }[]).find((d) => d.rule === rule)?.message;
  const min = pick('min');
  const max = pick('max');
  return min && max ? { min, max } : null;
}

/** The convert form, once the catalogue gave the coins and their decimals. */
function ConvertForm({ app, coins }: { app: boolean; coins: readonly ConvertCoinInfo[] }) {
  const { t } = useTranslation(NAMESPACE);
  const errorMessage = useErrorMessage();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const from: ConvertCoin = isConvertCoin(params.get('from'), coins) ? (params.get('from') as ConvertCoin) : 'USDT';
  const toParam = params.get('to');
  const to: ConvertCoin = isConvertCoin(toParam, coins) && toParam !== from ? toParam : from === 'BTC' ? 'USDT' : 'BTC';
  const [amountText, setAmountText] = useState(params.get('amount') ?? '');
  const [requote, setRequote] = useState<HeldQuote | null>(null);
  const [shown, setShown] = useState<HeldQuote | null>(null);
  const [preview, setPreview] = useState<HeldQuote | null>(null);
  const [busy, setBusy] = useState(false);
  const now = useNow();
  const { display, rate, locale } = useAmountFormat();

  const status = useSessionStatus();
  const signedIn = status === 'authenticated';

  const balances = useQuery({ queryKey: convertKeys.balances, queryFn: fetchBalances, enabled: signedIn });
  const decimals = inputDecimals(from, to, coins);
  const amountMinor = parseAmount(amountText, decimals);
  // A stable swap into fewer decimals is typed in the target's digits; the quote is in `from` units.
  const scaledMinor = amountMinor === null ? null : amountMinor * 10n ** BigInt(decimalsOf(from, coins) - decimals);
  const quoteQuery = useQuote(from, to, scaledMinor, signedIn);
  const fetched = quoteQuery.data ?? null;
  useEffect(() => setShown(fetched), [fetched]);
  const quote =
    shown && shown.from === from && shown.to === to && shown.amountMinor === scaledMinor?.toString() ? shown : null;
  const available = balances.data?.get(from) ?? 0n;
  const overBalance = scaledMinor !== null && balances.data !== undefined && scaledMinor > available;
  const left = quote ? Math.max(0, Math.ceil((quote.expiresAtMs - now) / 1000)) : 0;
  const range = rangeOf(quoteQuery.error);

  const go = (next: { from?: ConvertCoin; to?: ConvertCoin }) => {
    const search = new URLSearchParams({ from: next.from ?? from, to: next.to ?? to });
    setParams(search, { replace: true });
  };
  const pick = (side: 'from' | 'to') =>
    void navigate(`/convert/selectCurrency?side=${side}&from=${from}&to=${to}${app ? '&app=1' : ''}`);

  const finish = async (result: AcceptResult) => {
    setPreview(null);
    if (result.outcome === 'requoted') {
      setRequote(holdQuote(result.quote));
      return;
    }
    setRequote(null);
    toast.success(t('convert.done'));
    await queryClient.invalidateQueries({ queryKey: ['convert'] });
    void navigate(`/convert/detail?id=${result.conversion.id}`);
  };
  const accept = async (target: HeldQuote) => {
    setBusy(true);
    try {
      await finish(await acceptQuote(target.quoteId));
    } catch (error) {
      toast.fail(errorMessage(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <HubPage app={app}>
      <div className={styles.card}>
        <div className={styles.row}>
          <span className={styles.label}>{t('convert.give')}</span>
          {signedIn ? (
            <button
              type="button"
              className={styles.label}
              style={{ border: 0, background: 'none', cursor: 'pointer' }}
              onClick={() =>
                setAmountText(formatMinor(available / 10n ** BigInt(decimalsOf(from, coins) - decimals), decimals))
              }
              data-testid="convert-available"
            >
              {t('convert.available', { amount: display(available, coinDisplay(from, coins)), coin: from })}
            </button>
          ) : null}
        </div>
        <div className={styles.row}>
          <button type="button" className={styles.coinButton} onClick={() => pick('from')} data-testid="convert-from">
            <CoinIcon coin={from} size={22} />
            {from} ▾
          </button>
          <NumberInput
            className={styles.amount}
            value={localizeDecimal(amountText, locale, { grouping: false })}
            onChange={(next) => setAmountText(delocalizeAmount(next, locale))}
            decimals={decimals}
            placeholder={t('convert.amountPlaceholder')}
            aria-label={t('convert.give')}
            data-testid="convert-amount"
          />
        </div>
        {scaledMinor !== null ? <FiatLine asset={from} amountMinor={scaledMinor} testId="convert-from-fiat" /> : null}
      </div>
      <button
        type="button"
        className={styles.swap}
        onClick={() => go({ from: to, to: from })}
        aria-label={t('convert.swap')}
        data-testid="convert-swap"
      >
        ⇅
      </button>
      <div className={styles.card}>
        <div className={styles.row}>
          <span className={styles.label}>{t('convert.get')}</span>
        </div>
        <div className={styles.row}>
          <button type="button" className={styles.coinButton} onClick={() => pick('to')} data-testid="convert-to">
            <CoinIcon coin={to} size={22} />
            {to} ▾
          </button>
          <span className={styles.receive} data-testid="convert-receive">
            {quote ? display(quote.receiveMinor, coinDisplay(to, coins)) : '--'}
          </span>
        </div>
        {quote ? <FiatLine asset={to} amountMinor={BigInt(quote.receiveMinor)} testId="convert-to-fiat" /> : null}
      </div>

      <div className={`${styles.card} ${styles.details}`} data-testid="convert-quote">
        <div className={styles.row}>
          <span className={styles.label}>{t('convert.rate')}</span>
          <span>
            {quote?.source === 'sandbox' ? (
              <Tag color="warning" fill="outline" data-testid="convert-rate-sandbox">
                {t('convert.sandbox')}
              </Tag>
            ) : null}{' '}
            <span data-testid="convert-rate">{quote ? `1 ${from} ≈ ${rate(quote.rate)} ${to}` : '--'}</span>
          </span>
        </div>
        <div className={styles.row}>
          <span className={styles.label}>{t('convert.fee')}</span>
          <span data-testid="convert-fee">
            {quote ? `${display(quote.feeMinor, coinDisplay(from, coins), 'up')} ${from}` : '--'}
          </span>
        </div>
        <div className={styles.row}>
          <span className={styles.label}>{t('convert.limits')}</span>
          <span data-testid="convert-limits">
            {quote || range
              ? `${display(quote?.minMinor ?? range?.min ?? '0', coinDisplay(from, coins), 'up')} - ${display(quote?.maxMinor ?? range?.max ?? '0', coinDisplay(from, coins))} ${from}`
              : '--'}
          </span>
        </div>
        {quote ? (
          <div
            className={`${styles.muted} ${styles.countdown} ${left === 0 ? styles.expired : ''}`}
            data-testid="convert-countdown"
            data-seconds={left}
          >
            {left > 0 ? t('convert.expiresIn', { seconds: left }) : t('convert.expiredHint')}
          </div>
        ) : null}
        {quoteQuery.isError ? (
          <p className={styles.error} data-testid="convert-quote-error">
            {errorMessage(quoteQuery.error)}
          </p>
        ) : null}
        {overBalance ? <p className={styles.error}>{t('convert.overBalance')}</p> : null}
        {quote && quote.rate === '1' && quote.feeMinor === '0' ? (
          <span className={styles.muted} data-testid="convert-stable-note">
            {t('convert.stableNote')}
          </span>
        ) : null}
      </div>

      {status === 'anonymous' ? (
        <Button block color="primary" size="large" onClick={() => void navigate('/login')} data-testid="convert-login">
          {t('convert.loginFirst')}
        </Button>
      ) : (
        <Button
          block
          color="primary"
          size="large"
          loading={busy}
          disabled={!quote || overBalance || busy}
          onClick={() => setPreview(quote)}
          data-testid="convert-submit"
        >
          {t('convert.submit')}
        </Button>
      )}
      <p className={styles.build} data-testid="build-id">
        {t('hub.build', { build: __BUILD_ID__ })}
      </p>

      <PreviewSheet
        quote={preview}
        busy={busy}
        coins={coins}
        onConfirm={(previewed) => void accept(previewed)}
        onCancel={() => setPreview(null)}
      />
      <ExpiredDialog
        quote={requote}
        busy={busy}
        onAccept={(next) => void accept(next)}
        coins={coins}
        onCancel={() => {
          // Keep showing the new rate on the screen; nothing was converted.
          if (requote) setShown(requote);
          setRequote(null);
        }}
      />
    </HubPage>
  );
}

/** The hub's page: title, back arrow (not in the app variant) and the link to the records. */
function HubPage({ app, children }: { app: boolean; children: ReactNode }) {
  const { t } = useTranslation(NAMESPACE);
  const navigate = useNavigate();
  const history = (
    <PageLink onClick={() => void navigate('/convert/history')} data-testid="convert-history-link">
      {t('convert.records')}
    </PageLink>
  );
  return (
    <ConvertPage
      title={t('convert.title')}
      testId="convert-hub"
      {...(app ? {} : { parent: '/coinTopup' })}
      right={history}
    >
      {app ? null : <TradeSwitch current="convert" />}
      {children}
    </ConvertPage>
  );
}

/**
 * /convert (and /convert/indexToApp, the app's variant without a back arrow): give one coin, get
 * another. The quote shows rate, fee, amount received, limits and a countdown; accepting an
 * expired one brings the "rate expired and updated" dialog with the new rate.
 * Amounts need the coins' decimals, so the form waits for the catalogue (no amount in wrong digits).
 */
function ConvertScreen({ app = false }: { app?: boolean }) {
  const { coins, isError, refetch } = useConvertCoins();
  if (coins) return <ConvertForm app={app} coins={coins} />;
  return <HubPage app={app}>{isError ? <ErrorState onRetry={() => void refetch()} /> : <LoadingState />}</HubPage>;
}

export default withQueryClient(ConvertScreen);
