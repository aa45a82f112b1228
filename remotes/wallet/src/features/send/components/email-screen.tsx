import { isApiError } from '@cw/shared-state/api';
import { isKnownErrorCode, useErrorMessage } from '@cw/shared-state/errors';
import { currentLanguage, useTranslation } from '@cw/shared-state/i18n';
import { Navigate, useNavigate } from '@cw/shared-state/router';
import { useSession } from '@cw/shared-state/session';
import { CountdownButton } from '@cw/shared-ui/countdown-button';
import { toast } from '@cw/shared-ui/toast';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Input } from 'antd-mobile';
import { type FormEvent, useRef, useState } from 'react';
import * as ui from '../../../components/wallet-page.module.css';
import { WalletPage } from '../../../components/wallet-page.tsx';
import { NAMESPACE } from '../../../i18n.ts';
import { createSend, createWithdrawal, sendTransferCode, sendWithdrawCode } from '../api/send.ts';
import { useSendFlow } from '../hooks/send-flow.ts';

const SIX_DIGITS = /^\d{6}$/;

/** /coinTopup/verification/email: the e-mailed code, then the order is placed. */
export default function EmailScreen() {
  const { t } = useTranslation(NAMESPACE);
  const errorMessage = useErrorMessage();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const me = useSession((s) => s.me);
  const draft = useSendFlow((s) => s.draft);
  const fundPassword = useSendFlow((s) => s.fundPassword);
  const clear = useSendFlow((s) => s.clear);
  const [code, setCode] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // Set once the order is placed: the draft is cleared then, which must not bounce back to the form.
  const placed = useRef(false);
  if (placed.current) return null;
  if (!draft) return <Navigate to="/coinTopup/send" replace />;
  if (me?.hasFundPassword && !fundPassword) return <Navigate to="/coinTopup/verification/pwd" replace />;

  const sendCode = async () => {
    try {
      await (draft.kind === 'send' ? sendTransferCode : sendWithdrawCode)(currentLanguage());
    } catch (error) {
      toast.fail(errorMessage(error));
      throw error;
    }
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!SIX_DIGITS.test(code)) return setProblem(t('verify.codeFormat'));
    setBusy(true);
    setProblem(null);
    const verification = { emailCode: code, ...(fundPassword ? { fundPassword } : {}) };
    try {
      let detail: string;
      if (draft.kind === 'withdrawal') {
        const order = await createWithdrawal({
          coin: draft.coin,
          network: draft.network,
          address: draft.target,
          amountMinor: draft.amountMinor,
          idempotencyKey: draft.idempotencyKey,
          ...verification,
        });
        detail = `/coinTopup/withdrawDeposit?type=withdrawal&id=${order.id}`;
      } else {
        const order = await createSend({
          coin: draft.coin,
          recipient: draft.target,
          recipientKind: draft.recipientKind ?? 'email',
          ...(draft.recipientKind === 'address' && draft.network ? { network: draft.network } : {}),
          amountMinor: draft.amountMinor,
          idempotencyKey: draft.idempotencyKey,
          ...verification,
        });
        detail = `/coinTopup/withdrawDeposit?type=send&id=${order.id}`;
      }
      placed.current = true;
      void navigate(detail, { replace: true });
      clear();
      void queryClient.invalidateQueries({ queryKey: ['wallet'] });
      toast.success(t('verify.submitted'));
    } catch (error) {
      // "Withdrawal failed" / "send failed" unless the server said why.
      const known = isApiError(error) && isKnownErrorCode(error.code);
      if (known) setProblem(errorMessage(error));
      else setProblem(draft.kind === 'withdrawal' ? t('verify.withdrawalFailed') : t('verify.sendFailed'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <WalletPage title={t('verify.emailTitle')} testId="wallet-verify-email" parent="/coinTopup/send/affirm">
      <form className={`${ui.card} ${ui.field}`} noValidate onSubmit={(event) => void onSubmit(event)}>
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
        <Button type="submit" block color="primary" size="large" loading={busy} data-testid="verify-email-submit">
          {t('verify.submit')}
        </Button>
      </form>
    </WalletPage>
  );
}
