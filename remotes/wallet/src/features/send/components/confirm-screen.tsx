import { useCatalogue } from '@cw/shared-state/catalogue';
import { useTranslation } from '@cw/shared-state/i18n';
import { useAmountFormat } from '@cw/shared-state/money';
import { Navigate, useNavigate } from '@cw/shared-state/router';
import { useSession } from '@cw/shared-state/session';
import { LockBanner } from '@cw/shared-ui/lock-banner';
import { Button, NoticeBar } from 'antd-mobile';
import { NAMESPACE } from '../../../i18n.ts';
import { DetailRows } from '../../../lib/detail-rows.tsx';
import * as ui from '../../../lib/wallet-page.module.css';
import { WalletPage } from '../../../lib/wallet-page.tsx';
import { nextStep, SEND_STEP_PATHS, useSendFlow } from '../stores/send-flow.ts';

/** /coinTopup/send/affirm: the order as it will be placed; next is the fund password (if set), then the e-mail code. */
export default function ConfirmScreen() {
  const { t } = useTranslation(NAMESPACE);
  const format = useAmountFormat();
  const navigate = useNavigate();
  const draft = useSendFlow((s) => s.draft);
  const me = useSession((s) => s.me);
  const { view } = useCatalogue();
  if (!draft) return <Navigate to={SEND_STEP_PATHS.form} replace />;
  const decimals = view?.decimalsOf(draft.coin) ?? 0;
  const amount = (minor: string) => `${format.amount(minor, decimals)} ${draft.coin}`;
  const next = SEND_STEP_PATHS[nextStep('affirm', me?.hasFundPassword === true)];

  return (
    <WalletPage
      title={draft.kind === 'withdrawal' ? t('affirm.title') : t('affirm.titleTransfer')}
      testId="wallet-affirm"
      parent="/coinTopup/send"
    >
      <LockBanner testId="affirm-lock-banner" />
      <section className={`${ui.card} ${ui.field}`} style={{ alignItems: 'center' }}>
        <span className={ui.muted}>{draft.kind === 'withdrawal' ? t('affirm.withdrawal') : t('affirm.send')}</span>
        <span className={ui.strong} style={{ fontSize: 24 }} data-testid="affirm-amount">
          {amount(draft.amountMinor)}
        </span>
      </section>
      <DetailRows
        rows={
          draft.kind === 'withdrawal'
            ? [
                { label: t('common.coin'), value: draft.coin },
                { label: t('common.network'), value: view?.networkLabel(draft.network, draft.coin) ?? draft.network },
                { label: t('send.address'), value: draft.target, testId: 'affirm-target', mono: true },
                { label: t('send.fee'), value: amount(draft.feeMinor), testId: 'affirm-fee' },
                { label: t('send.arrival'), value: amount(draft.arrivalMinor), testId: 'affirm-arrival' },
              ]
            : // A transfer: no network, no fee; the recipient gets the amount.
              [
                { label: t('common.coin'), value: draft.coin },
                { label: t('send.recipient'), value: draft.target, testId: 'affirm-target', mono: true },
              ]
        }
      />
      {draft.kind === 'withdrawal' && <NoticeBar content={t('affirm.noCancel')} color="alert" wrap />}
      {!me?.hasFundPassword && (
        <Button
          block
          fill="none"
          color="primary"
          data-testid="affirm-set-fund-password"
          onClick={() => void navigate('/coinTopup/verification/capitalPwd')}
        >
          {t('affirm.setFundPassword')}
        </Button>
      )}
      <Button block color="primary" size="large" data-testid="affirm-confirm" onClick={() => void navigate(next)}>
        {t('affirm.confirm')}
      </Button>
    </WalletPage>
  );
}
