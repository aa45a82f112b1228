import { useTranslation } from '@cw/shared-state/i18n';
import { delocalizeAmount, formatMinor, localizeDecimal, useAmountFormat } from '@cw/shared-state/money';
import { ChipSelect } from '@cw/shared-ui/chip-select';
import { CoinIcon, NetworkIcon } from '@cw/shared-ui/coin-icon';
import { NumberInput } from '@cw/shared-ui/number-input';
import { Button } from 'antd-mobile';
import { NAMESPACE } from '../../../i18n.ts';
import { AddressField } from '../../../lib/address-field.tsx';
import { networkPaymentContext } from '../../../lib/payment-uri.ts';
import * as ui from '../../../lib/wallet-page.module.css';
import type { SendForm } from '../hooks/use-send-form.ts';
import { maxAmountMinor } from '../utils/validate-send.ts';

/** The coin, and for a withdrawal its network (a transfer to a user never touches a chain). */
export function CoinSection({ form }: { form: SendForm }) {
  const { t } = useTranslation(NAMESPACE);
  const { coin, view } = form;
  return (
    <section className={`${ui.card} ${ui.field}`}>
      <span className={ui.label}>{t('common.coin')}</span>
      <ChipSelect
        testId="send-coin"
        columns={4}
        options={form.coins.map((code) => ({ label: code, value: code, icon: <CoinIcon coin={code} /> }))}
        value={coin}
        onChange={form.setCoin}
      />
      {!form.transfer && (
        <>
          <span className={ui.label}>{t('common.network')}</span>
          <ChipSelect
            testId="send-network"
            columns={2}
            options={form.pairs.map((p) => ({
              label: view?.networkLabel(p.network, coin) ?? p.network,
              value: p.network,
              icon: <NetworkIcon network={p.network} />,
            }))}
            value={form.network}
            onChange={form.setNetwork}
          />
        </>
      )}
    </section>
  );
}

/** The selected network's chain id and the coin's contract there: a scanned request must match both. */
function paymentContext(form: SendForm) {
  const network = form.view?.catalogue.networks.find((n) => n.code === form.network);
  const pair = form.view?.pair(form.coin, form.network);
  const native = network?.nativeCoin === form.coin;
  return { chainId: network?.chainId ?? null, token: native ? null : (pair?.tokenContract ?? null) };
}

/** Where it goes: an address (with the address book) or another user, checked as it is typed. */
export function TargetField({ form, onPickFromBook }: { form: SendForm; onPickFromBook: () => void }) {
  const { t } = useTranslation(NAMESPACE);
  const withdrawal = form.mode === 'withdrawal';
  const { recipient } = form;
  let status: string | null = null;
  if (recipient.data) status = t('send.recipientFound', { recipient: recipient.data.recipient });
  else if (recipient.pending) status = t('send.checkingRecipient');
  return (
    <>
      <span className={ui.label}>{withdrawal ? t('send.address') : t('send.recipient')}</span>
      <AddressField
        value={form.target}
        onChange={(next) => {
          form.setTarget(next);
          if (next.length > 20) form.touch('target');
        }}
        onBlur={() => form.touch('target')}
        placeholder={withdrawal ? t('send.addressPlaceholder') : t('send.recipientPlaceholder')}
        testId="send-address"
        onPickFromBook={withdrawal ? onPickFromBook : undefined}
        // A transfer names no chain: a scanned payment request (which does) is refused, an address is read.
        payment={withdrawal ? paymentContext(form) : networkPaymentContext(null)}
      />
      {form.targetError && (
        <p className={ui.error} role="alert" data-testid="send-address-error">
          {form.targetError}
        </p>
      )}
      {form.transfer && !form.targetError && form.check.target === undefined && (
        <p className={ui.muted} role="status" data-testid="send-recipient-status">
          {status}
        </p>
      )}
    </>
  );
}

/** The amount (the state holds "1.5"; the field shows the locale's "1,5"), max, balance and limits. */
export function AmountField({ form }: { form: SendForm }) {
  const { t } = useTranslation(NAMESPACE);
  const format = useAmountFormat();
  const { coin, decimals, limits, view } = form;
  const shown = (minor: bigint) => (view ? format.display(minor, view.displayOf(coin)) : '');
  return (
    <>
      <span className={ui.label}>{t('send.amount')}</span>
      <div className={ui.row}>
        <NumberInput
          value={localizeDecimal(form.amountText, format.locale, { grouping: false })}
          onChange={(next) => {
            form.setAmountText(delocalizeAmount(next, format.locale));
            form.touch('amount');
          }}
          decimals={decimals}
          placeholder={
            limits && form.mode === 'withdrawal'
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
            form.setAmountText(formatMinor(maxAmountMinor(form.mode, form.available, limits?.maxMinor), decimals));
            form.touch('amount');
          }}
        >
          {t('send.max')}
        </Button>
      </div>
      {form.amountError && (
        <p className={ui.error} role="alert" data-testid="send-amount-error">
          {form.amountError}
        </p>
      )}
      <div className={ui.row}>
        <span className={ui.muted}>{t('send.available')}</span>
        <span className={ui.muted} data-testid="send-available">
          {shown(form.available)} {coin}
        </span>
      </div>
      {form.mode === 'withdrawal' && limits && (
        <div className={ui.row}>
          <span className={ui.muted}>{t('send.limits')}</span>
          <span className={ui.muted}>
            {shown(limits.minMinor)} – {shown(limits.maxMinor)} {coin}
          </span>
        </div>
      )}
    </>
  );
}

/** A withdrawal's fee and what arrives; a transfer is free. */
export function FeeSection({ form }: { form: SendForm }) {
  const { t } = useTranslation(NAMESPACE);
  const format = useAmountFormat();
  const { coin, decimals, check } = form;
  if (form.transfer) {
    return (
      <p className={ui.muted} data-testid="send-transfer-free">
        {t('send.transferFree')}
      </p>
    );
  }
  return (
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
  );
}
