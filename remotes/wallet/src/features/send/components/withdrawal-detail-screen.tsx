import { useCatalogue } from '@cw/shared-state/catalogue';
import { useTranslation } from '@cw/shared-state/i18n';
import { useAmountFormat } from '@cw/shared-state/money';
import { useSearchParams } from '@cw/shared-state/router';
import { TapAmount } from '@cw/shared-ui/amount';
import { EmptyState, ErrorState, LoadingState } from '@cw/shared-ui/states';
import { Steps, Tag } from 'antd-mobile';
import { NAMESPACE } from '../../../i18n.ts';
import { DetailRows } from '../../../lib/detail-rows.tsx';
import { formatTime } from '../../../lib/format-time.ts';
import * as ui from '../../../lib/wallet-page.module.css';
import { WalletPage } from '../../../lib/wallet-page.tsx';
import type { Withdrawal, WithdrawalState } from '../api/send.ts';
import { useSendRecord, useWithdrawal } from '../api/send-queries.ts';
import { reasonView } from '../utils/withdrawal-reason.ts';
import * as styles from './withdrawal-detail-screen.module.css';

/** Poll an unfinished withdrawal this often (review and the signer run in the background). */

const STATE_COLORS: Record<WithdrawalState, 'default' | 'primary' | 'success' | 'danger' | 'warning'> = {
  in_review: 'warning',
  review_approved: 'primary',
  review_rejected: 'danger',
  transfer_in_progress: 'primary',
  transfer_successful: 'success',
  transfer_failed: 'danger',
};

/** Which of the three steps (review, transfer, done) a state has reached, and whether it failed there. */
export function stepOf(state: WithdrawalState): { current: number; failed: boolean } {
  switch (state) {
    case 'in_review':
      return { current: 0, failed: false };
    case 'review_rejected':
      return { current: 0, failed: true };
    case 'review_approved':
    case 'transfer_in_progress':
      return { current: 1, failed: false };
    case 'transfer_failed':
      return { current: 1, failed: true };
    case 'transfer_successful':
      return { current: 2, failed: false };
  }
}

function WithdrawalDetail({ order }: { order: Withdrawal }) {
  const { t, i18n } = useTranslation(NAMESPACE);
  const format = useAmountFormat();
  const { view } = useCatalogue();
  const decimals = view?.decimalsOf(order.coin) ?? 0;
  const amount = (minor: string) => `${format.amount(minor, decimals)} ${order.coin}`;
  const step = stepOf(order.state);
  const reason = reasonView(order.state, order.reason);
  const stepStatus = (index: number) => {
    if (index < step.current) return 'finish' as const;
    if (index > step.current) return 'wait' as const;
    if (step.failed) return 'error' as const;
    return order.state === 'transfer_successful' ? ('finish' as const) : ('process' as const);
  };
  return (
    <>
      <section className={`${ui.card} ${ui.field}`} style={{ alignItems: 'center' }}>
        <span className={ui.strong} style={{ fontSize: 22 }}>
          {view ? (
            <TapAmount
              minor={order.amountMinor}
              coin={view.displayOf(order.coin)}
              code={order.coin}
              testId="withdraw-amount"
            />
          ) : (
            <span data-testid="withdraw-amount">{amount(order.amountMinor)}</span>
          )}
        </span>
        <Tag color={STATE_COLORS[order.state]} data-testid="withdraw-state" data-state={order.state}>
          {t(`withdrawalState.${order.state}`)}
        </Tag>
        {reason && (
          <p className={`${ui.error} ${styles.reason}`} data-testid="withdraw-reason">
            <span className={styles.reasonLabel}>{t(reason.labelKey)}</span>
            {/* A machine reason in the reader's language; an operator's note as the operator wrote it. */}
            <span data-testid="withdraw-reason-text">{reason.textKey ? t(reason.textKey) : reason.text}</span>
          </p>
        )}
      </section>
      <section className={ui.card}>
        <Steps current={step.current}>
          <Steps.Step title={t('withdrawDetail.stepReview')} status={stepStatus(0)} />
          <Steps.Step title={t('withdrawDetail.stepTransfer')} status={stepStatus(1)} />
          <Steps.Step title={t('withdrawDetail.stepDone')} status={stepStatus(2)} />
        </Steps>
      </section>
      <DetailRows
        rows={[
          { label: t('withdrawDetail.orderId'), value: order.id, testId: 'withdraw-id', mono: true },
          { label: t('common.network'), value: view?.networkLabel(order.network, order.coin) ?? order.network },
          { label: t('send.address'), value: order.address, mono: true },
          { label: t('send.fee'), value: amount(order.feeMinor) },
          { label: t('send.arrival'), value: amount(order.arrivalMinor), testId: 'withdraw-arrival' },
          { label: t('common.txHash'), value: order.txHash ?? '', testId: 'withdraw-tx', mono: true },
          { label: t('common.time'), value: formatTime(order.createdAt, i18n.language) },
        ]}
      />
    </>
  );
}

/** /coinTopup/withdrawDeposit?type=withdrawal|send&id=: one withdrawal (with its state) or send. */
export default function WithdrawalDetailScreen() {
  const { t, i18n } = useTranslation(NAMESPACE);
  const format = useAmountFormat();
  const [params] = useSearchParams();
  const id = params.get('id') ?? '';
  const isSend = params.get('type') === 'send';
  const { view } = useCatalogue();
  const withdrawal = useWithdrawal(id, !isSend);
  const send = useSendRecord(id, isSend);
  const query = isSend ? send : withdrawal;

  let body = null;
  // A link without an id: nothing to ask for (the query is off), so nothing to show or retry.
  if (id === '') body = <EmptyState />;
  else if (query.isError) body = <ErrorState onRetry={() => void query.refetch()} />;
  else if (!isSend && withdrawal.data) body = <WithdrawalDetail order={withdrawal.data} />;
  else if (isSend && send.data) {
    const s = send.data;
    const decimals = view?.decimalsOf(s.coin) ?? 0;
    body = (
      <>
        <section className={`${ui.card} ${ui.field}`} style={{ alignItems: 'center' }}>
          <span className={ui.strong} style={{ fontSize: 22 }} data-testid="withdraw-amount">
            {format.amount(s.amountMinor, decimals)} {s.coin}
          </span>
          <Tag color="success" data-testid="withdraw-state" data-state="transfer_successful">
            {t('withdrawalState.transfer_successful')}
          </Tag>
        </section>
        <DetailRows
          rows={[
            { label: t('withdrawDetail.orderId'), value: s.id, testId: 'withdraw-id', mono: true },
            { label: t('send.recipient'), value: s.recipient ?? '', mono: true },
            { label: t('send.fee'), value: `0 ${s.coin}` },
            { label: t('common.time'), value: formatTime(s.createdAt, i18n.language) },
          ]}
        />
      </>
    );
  } else body = <LoadingState />;

  return (
    <WalletPage
      title={isSend ? t('withdrawDetail.sendTitle') : t('withdrawDetail.title')}
      testId="wallet-withdraw-detail"
      parent="/coinTopup/history"
    >
      {body}
    </WalletPage>
  );
}
