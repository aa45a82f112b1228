import { useErrorMessage } from '@cw/shared-state/errors';
import { useTranslation } from '@cw/shared-state/i18n';
import { delocalizeAmount, formatMinor, localizeDecimal, useAmountFormat } from '@cw/shared-state/money';
import { useNavigate, useSearchParams } from '@cw/shared-state/router';
import { ChipSelect } from '@cw/shared-ui/chip-select';
import { CoinIcon, NetworkIcon } from '@cw/shared-ui/coin-icon';
import { NumberInput } from '@cw/shared-ui/number-input';
import { ErrorState, LoadingState } from '@cw/shared-ui/states';
import { Button, CapsuleTabs, NoticeBar, Popup } from 'antd-mobile';
import { useState } from 'react';
import { AddressField } from '../../../components/address-field.tsx';
import * as ui from '../../../components/wallet-page.module.css';
import { WalletPage } from '../../../components/wallet-page.tsx';
import { NAMESPACE } from '../../../i18n.ts';
import { useCodeMessage } from '../../../lib/code-message.ts';
import { AddressBookPicker } from '../../address-book/components/address-book-picker.tsx';
import { useAvailable } from '../../balances/hooks/use-balances.ts';
import { useCatalogue } from '@cw/shared-state/catalogue';
import { useSendFlow } from '../hooks/send-flow.ts';
import { useRecipientCheck } from '../hooks/use-recipient-check.ts';
import { maxAmountMinor, type SendMode, type SendProblem, validateSend } from '../hooks/validate-send.ts';

/** /coinTopup/send: withdraw to an address, or send to another user of the service. */
export default function SendScreen() {
  const { t } = useTranslation(NAMESPACE);
  const format = useAmountFormat();
  const codeMessage = useCodeMessage();
  const errorMessage = useErrorMessage();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const { view, isError, refetch } = useCatalogue();
  const start = useSendFlow((s) => s.start);
  const [mode, setMode] = useState<SendMode>(params.get('mode') === 'send' ? 'send' : 'withdrawal');
  const [coinChoice, setCoin] = useState(params.get('coin') ?? 'USDT');
  const [networkChoice, setNetwork] = useState(params.get('network') ?? '');
  const [target, setTarget] = useState(params.get('address') ?? '');
  const [amountText, setAmountText] = useState('');
  const [touched, setTouched] = useState({ target: false, amount: false });
  const [picking, setPicking] = useState(false);

  // Every pair is listed; one whose withdrawals are off says so (sends to users never touch a chain).
  const coins: string[] = view ? [...new Set(view.catalogue.pairs.map((p) => p.coin))] : [];
  const coin = coins.includes(coinChoice) ? coinChoice : (coins[0] ?? '');
  const pairs = view?.catalogue.pairs.filter((p) => p.coin === coin) ?? [];
  const pair = pairs.find((p) => p.network === networkChoice) ?? pairs[0];
  const network = pair?.network ?? '';
  const decimals = view?.decimalsOf(coin) ?? 0;
  const available = useAvailable(coin);
  const limits = pair
    ? {
        minMinor: BigInt(pair.withdrawMinMinor),
        maxMinor: BigInt(pair.withdrawMaxMinor),
        feeMinor: BigInt(pair.withdrawFeeMinor),
      }
    : undefined;
  const check = validateSend({ mode, network, target, amountText, decimals, availableMinor: available, limits });
  const problemText = (problem: SendProblem | undefined) => {
    if (!problem) return undefined;
    return problem.startsWith('send.') ? t(problem) : codeMessage(problem as Parameters<typeof codeMessage>[0]);
  };
  // A transfer's recipient is asked of the server as it is typed, before any code is e-mailed.
  const transfer = mode === 'send';
  const recipient = useRecipientCheck(target.trim(), check.recipientKind, transfer && check.target === undefined);
  const recipientError = transfer && recipient.isError ? errorMessage(recipient.error) : undefined;
  const targetError = touched.target ? (problemText(check.target) ?? recipientError) : recipientError;
  const amountError = touched.amount ? problemText(check.amount) : undefined;

  const withdrawDisabled = mode === 'withdrawal' && pair !== undefined && !pair.withdrawEnabled;
  const onNext = () => {
    setTouched({ target: true, amount: true });
    if (check.target || check.amount || !pair || withdrawDisabled) return;
    if (transfer && !recipient.data) return;
    start({
      kind: mode,
      coin,
      network: transfer ? (recipient.data?.network ?? '') : network,
      target: target.trim(),
      recipientKind: mode === 'send' ? check.recipientKind : undefined,
      amountMinor: check.amountMinor.toString(),
      feeMinor: check.feeMinor.toString(),
      arrivalMinor: check.arrivalMinor.toString(),
    });
    void navigate('/coinTopup/send/affirm');
  };

  if (!view)
    return (
      <WalletPage title={t('send.title')} testId="wallet-send" parent="/coinTopup">
        {isError ? <ErrorState onRetry={() => void refetch()} /> : <LoadingState />}
      </WalletPage>
    );

  return (
    <WalletPage title={transfer ? t('send.titleTransfer') : t('send.title')} testId="wallet-send" parent="/coinTopup">
      <CapsuleTabs activeKey={mode} onChange={(key) => setMode(key === 'send' ? 'send' : 'withdrawal')}>
        <CapsuleTabs.Tab title={t('send.modeWithdrawal')} key="withdrawal" />
        <CapsuleTabs.Tab title={t('send.modeUser')} key="send" />
      </CapsuleTabs>
      <section className={`${ui.card} ${ui.field}`}>
        <span className={ui.label}>{t('common.coin')}</span>
        <ChipSelect
          testId="send-coin"
          columns={4}
          options={coins.map((code) => ({ label: code, value: code, icon: <CoinIcon coin={code} /> }))}
          value={coin}
          onChange={(next) => {
            setCoin(next);
            setNetwork('');
          }}
        />
        {/* A transfer to another user never touches a chain: no network, no network fee. */}
        {!transfer && (
          <>
            <span className={ui.label}>{t('common.network')}</span>
            <ChipSelect
              testId="send-network"
              columns={2}
              options={pairs.map((p) => ({
                label: view.networkLabel(p.network, coin),
                value: p.network,
                icon: <NetworkIcon network={p.network} />,
              }))}
              value={network}
              onChange={setNetwork}
            />
          </>
        )}
      </section>
      {withdrawDisabled && (
        <NoticeBar content={codeMessage('WITHDRAW_DISABLED')} color="alert" wrap data-testid="send-withdraw-disabled" />
      )}
      <section className={`${ui.card} ${ui.field}`}>
        <span className={ui.label}>{mode === 'withdrawal' ? t('send.address') : t('send.recipient')}</span>
        <AddressField
          value={target}
          onChange={(next) => {
            setTarget(next);
            if (next.length > 20) setTouched((s) => ({ ...s, target: true }));
          }}
          onBlur={() => setTouched((s) => ({ ...s, target: true }))}
          placeholder={mode === 'withdrawal' ? t('send.addressPlaceholder') : t('send.recipientPlaceholder')}
          testId="send-address"
          onPickFromBook={mode === 'withdrawal' ? () => setPicking(true) : undefined}
        />
        {targetError && (
          <p className={ui.error} role="alert" data-testid="send-address-error">
            {targetError}
          </p>
        )}
        {transfer && !targetError && check.target === undefined && (
          <p className={ui.muted} role="status" data-testid="send-recipient-status">
            {recipient.data
              ? t('send.recipientFound', { recipient: recipient.data.recipient })
              : recipient.pending
                ? t('send.checkingRecipient')
                : null}
          </p>
        )}
        <span className={ui.label}>{t('send.amount')}</span>
        <div className={ui.row}>
          {/* The state holds a plain decimal ("1.5"); the field shows and reads the locale's separator ("1,5" in es). */}
          <NumberInput
            value={localizeDecimal(amountText, format.locale, { grouping: false })}
            onChange={(next) => {
              setAmountText(delocalizeAmount(next, format.locale));
              setTouched((s) => ({ ...s, amount: true }));
            }}
            decimals={decimals}
            placeholder={
              limits && mode === 'withdrawal'
                ? t('send.amountPlaceholder', { min: format.amount(limits.minMinor, decimals), coin })
                : t('send.amountPlaceholderAny')
            }
            maxLength={40}
            data-testid="send-amount"
            style={{ flex: 1 }}
          />
          <Button
            size="small"
            color="primary"
            fill="none"
            data-testid="send-max"
            onClick={() => {
              setAmountText(formatMinor(maxAmountMinor(mode, available, limits?.maxMinor), decimals));
              setTouched((s) => ({ ...s, amount: true }));
            }}
          >
            {t('send.max')}
          </Button>
        </div>
        {amountError && (
          <p className={ui.error} role="alert" data-testid="send-amount-error">
            {amountError}
          </p>
        )}
        <div className={ui.row}>
          <span className={ui.muted}>{t('send.available')}</span>
          <span className={ui.muted} data-testid="send-available">
            {format.display(available, view.displayOf(coin))} {coin}
          </span>
        </div>
        {mode === 'withdrawal' && limits && (
          <div className={ui.row}>
            <span className={ui.muted}>{t('send.limits')}</span>
            <span className={ui.muted}>
              {format.display(limits.minMinor, view.displayOf(coin))} –{' '}
              {format.display(limits.maxMinor, view.displayOf(coin))} {coin}
            </span>
          </div>
        )}
      </section>
      {transfer ? (
        <p className={ui.muted} data-testid="send-transfer-free">
          {t('send.transferFree')}
        </p>
      ) : (
        <section className={`${ui.card} ${ui.field}`}>
          <div className={ui.row}>
            <span className={ui.label}>{t('send.fee')}</span>
            <span data-testid="send-fee">
              {format.amount(check.feeMinor, decimals)} {coin}
            </span>
          </div>
          <div className={ui.row}>
            <span className={ui.label}>{t('send.arrival')}</span>
            <span className={ui.strong} data-testid="send-arrival">
              {format.amount(check.arrivalMinor, decimals)} {coin}
            </span>
          </div>
        </section>
      )}
      <Button
        block
        color="primary"
        size="large"
        disabled={withdrawDisabled || (transfer && check.target === undefined && !recipient.data)}
        data-testid="send-next"
        onClick={onNext}
      >
        {t('send.next')}
      </Button>
      <Popup
        visible={picking}
        onMaskClick={() => setPicking(false)}
        bodyStyle={{ maxHeight: '70vh', overflow: 'auto' }}
      >
        <AddressBookPicker
          network={network}
          onPick={(entry) => {
            setTarget(entry.address);
            setTouched((s) => ({ ...s, target: true }));
            setPicking(false);
          }}
        />
      </Popup>
    </WalletPage>
  );
}
