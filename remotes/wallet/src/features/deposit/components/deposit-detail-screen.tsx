import { useCatalogue } from '@cw/shared-state/catalogue';
import { useTranslation } from '@cw/shared-state/i18n';
import { useSearchParams } from '@cw/shared-state/router';
import { TapAmount } from '@cw/shared-ui/amount';
import { EmptyState, ErrorState, LoadingState } from '@cw/shared-ui/states';
import { ProgressBar, Tag } from 'antd-mobile';
import { NAMESPACE } from '../../../i18n.ts';
import { DetailRows } from '../../../lib/detail-rows.tsx';
import { formatTime } from '../../../lib/format-time.ts';
import * as ui from '../../../lib/wallet-page.module.css';
import { WalletPage } from '../../../lib/wallet-page.tsx';
import type { DepositState } from '../api/deposit.ts';
import { useDeposit } from '../api/deposit-queries.ts';

/** Poll a confirming deposit this often; the confirmations count up on screen. */

const STATE_COLORS: Record<DepositState, 'warning' | 'success' | 'danger'> = {
  confirming: 'warning',
  successful: 'success',
  failed: 'danger',
};

/** /coinTopup/topup?id=: one deposit, its confirmations counting up until it is credited or fails. */
export default function DepositDetailScreen() {
  const { t, i18n } = useTranslation(NAMESPACE);
  const [params] = useSearchParams();
  const id = params.get('id') ?? '';
  const { view } = useCatalogue();
  const deposit = useDeposit(id);

  let body = null;
  // A link without an id: nothing to ask for (the query is off), so nothing to show or retry.
  if (id === '') body = <EmptyState />;
  else if (deposit.isError) body = <ErrorState onRetry={() => void deposit.refetch()} />;
  else if (!deposit.data) body = <LoadingState />;
  else {
    const d = deposit.data;
    const shown = Math.min(d.confirmations, d.requiredConfirmations);
    body = (
      <>
        <section className={`${ui.card} ${ui.field}`} style={{ alignItems: 'center' }}>
          <span className={ui.strong} style={{ fontSize: 22 }}>
            {view ? (
              <TapAmount minor={d.amountMinor} coin={view.displayOf(d.coin)} code={d.coin} testId="topup-amount" />
            ) : (
              <span data-testid="topup-amount">{d.coin}</span>
            )}
          </span>
          <Tag color={STATE_COLORS[d.state]} data-testid="topup-state" data-state={d.state}>
            {t(`depositState.${d.state}`)}
          </Tag>
          <div style={{ width: '100%' }}>
            <ProgressBar percent={d.requiredConfirmations > 0 ? (shown / d.requiredConfirmations) * 100 : 100} />
          </div>
          <span className={ui.muted} data-testid="topup-confirmations">
            {t('topup.confirmations', { current: shown, required: d.requiredConfirmations })}
          </span>
          {d.reason && (
            <p className={ui.error} data-testid="topup-reason">
              {t(`depositReason.${d.reason}`, { defaultValue: t('depositReason.other') })}
            </p>
          )}
        </section>
        <DetailRows
          rows={[
            { label: t('common.network'), value: view?.networkLabel(d.network, d.coin) ?? d.network },
            { label: t('common.address'), value: d.toAddress, mono: true },
            { label: t('common.txHash'), value: d.txHash, testId: 'topup-tx', mono: true },
            { label: t('common.time'), value: formatTime(d.createdAt, i18n.language) },
          ]}
        />
      </>
    );
  }
  return (
    <WalletPage title={t('topup.title')} testId="wallet-topup" parent="/coinTopup/history">
      {body}
    </WalletPage>
  );
}
