import { isApiError } from '@cw/shared-state/api';
import { isKnownErrorCode, useErrorMessage } from '@cw/shared-state/errors';
import { currentLanguage, useTranslation } from '@cw/shared-state/i18n';
import { Navigate } from '@cw/shared-state/router';
import { useSession } from '@cw/shared-state/session';
import { CountdownButton } from '@cw/shared-ui/countdown-button';
import { toast } from '@cw/shared-ui/toast';
import { Button, Input } from 'antd-mobile';
import { type FormEvent, useState } from 'react';
import { NAMESPACE } from '../../../i18n.ts';
import * as ui from '../../../lib/wallet-page.module.css';
import { WalletPage } from '../../../lib/wallet-page.tsx';
import { sendTransferCode, sendWithdrawCode } from '../api/send.ts';
import { usePlaceOrderMutation } from '../api/send-queries.ts';
import { missingStep, SEND_STEP_PATHS, useSendFlow } from '../stores/send-flow.ts';

const SIX_DIGITS = /^\d{6}$/;

/** /coinTopup/verification/email: the e-mailed code, then the order is placed. */
export default function EmailCodeScreen() {
  const { t } = useTranslation(NAMESPACE);
  const errorMessage = useErrorMessage();
  const me = useSession((s) => s.me);
  const draft = useSendFlow((s) => s.draft);
  const fundPassword = useSendFlow((s) => s.fundPassword);
  const placedPath = useSendFlow((s) => s.placedPath);
  const place = usePlaceOrderMutation(() => toast.success(t('verify.submitted')));
  const [code, setCode] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  // The flow placed the order (and ended): its detail screen is next.
  if (placedPath) return <Navigate to={placedPath} replace />;
  const missing = missingStep('email-code', { draft, fundPassword }, me?.hasFundPassword === true);
  if (missing || !draft) return <Navigate to={SEND_STEP_PATHS[missing ?? 'form']} replace />;

  const sendCode = async () => {
    try {
      await (draft.kind === 'send' ? sendTransferCode : sendWithdrawCode)(currentLanguage());
    } catch (error) {
      toast.fail(errorMessage(error));
      throw error;
    }
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!SIX_DIGITS.test(code)) return setProblem(t('verify.codeFormat'));
    setProblem(null);
    place.mutate(code, {
      onError: (error) => {
        // "Withdrawal failed" / "send failed" unless the server said why.
        const known = isApiError(error) && isKnownErrorCode(error.code);
        if (known) setProblem(errorMessage(error));
        else setProblem(draft.kind === 'withdrawal' ? t('verify.withdrawalFailed') : t('verify.sendFailed'));
      },
    });
  };

  return (
    <WalletPage title={t('verify.emailTitle')} testId="wallet-verify-email" parent="/coinTopup/send/affirm">
      <form className={`${ui.card} ${ui.field}`} noValidate onSubmit={onSubmit}>
        <p className={ui.muted}>{t('verify.codeSentTo', { email: me?.emailMasked ?? '' })}</p>
        <span className={ui.label}>{t('verify.code')}</span>
        <div className={ui.row}>
          <Input
            value={code}
            onChange={(next) => setCode(next.replace(/\D/g, '').slice(0, 6))}
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            className={ui.input}
            placeholder={t('verify.codePlaceholder')}
            data-testid="verify-email-code"
          />
          <CountdownButton seconds={60} onSend={sendCode} className={ui.nowrap} data-testid="verify-send-code" />
        </div>
        {problem && (
          <p className={ui.error} role="alert" data-testid="verify-email-error">
            {problem}
          </p>
        )}
        <Button
          type="submit"
          block
          color="primary"
          size="large"
          loading={place.isPending}
          data-testid="verify-email-submit"
        >
          {t('verify.submit')}
        </Button>
      </form>
    </WalletPage>
  );
}
