import { useTranslation } from '@cw/shared-state/i18n';
import { useSearchParams } from '@cw/shared-state/router';
import { TapAmount } from '@cw/shared-ui/amount';
import { ErrorState, LoadingState } from '@cw/shared-ui/states';
import { useQuery } from '@tanstack/react-query';
import { ProgressBar, Tag } from 'antd-mobile';
import { DetailRows } from '../../../components/detail-rows.tsx';
import * as ui from '../../../components/wallet-page.module.css';
import { WalletPage } from '../../../components/wallet-page.tsx';
import { NAMESPACE } from '../../../i18n.ts';
import { formatTime } from '../../../lib/format-time.ts';
import { useCatalogue } from '@cw/shared-state/catalogue';
import { type DepositState, fetchDeposit } from '../api/deposit.ts';

/** Poll a confirming deposit this often; the confirmations count up on screen. */
export const DEPOSIT_POLL_MS = 3000;

const STATE_COLORS: Record<DepositState, 'warning' | 'success' | 'danger'> = {
  confirming: 'warning',
  successful: 'success',
  failed: 'danger',
};

/** /coinTopup/topup?id=: one deposit, its confirmations counting up until it is credited or fails. */
export default function TopupDetailScreen() {
  const { t, i18n } = useTranslation(NAMESPACE);
  const [params] = useSearchParams();
  const id = params.get('id') ?? '';
  const { view } = useCatalogue();
  const deposit = useQuery({
    queryKey: ['wallet', 'deposit', id],
    queryFn: () => fetchDeposit(id),
    enabled: id !== '',
    refetchInterval: (query) => (query.state.data?.state === 'confirming' ? DEPOSIT_POLL_MS : false),
  });

  let body = null;
  if (deposit.isError || id === '') body = <ErrorState onRetry={() => void deposit.refetch()} />;
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
