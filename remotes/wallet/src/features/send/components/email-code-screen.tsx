import { ApiError, isApiError } from '@cw/shared-state/api';
import { isKnownErrorCode, useErrorMessage } from '@cw/shared-state/errors';
import { useTranslation } from '@cw/shared-state/i18n';
import type { PasskeyAnswer } from '@cw/shared-state/passkeys';
import { hasPasskeys, passkeyAnswer, passkeysSupported } from '@cw/shared-state/passkeys';
import { Navigate } from '@cw/shared-state/router';
import { useSession } from '@cw/shared-state/session';
import { toast } from '@cw/shared-ui/toast';
import { Button } from 'antd-mobile';
import { type FormEvent, useEffect, useState } from 'react';
import { NAMESPACE } from '../../../i18n.ts';
import * as ui from '../../../lib/wallet-page.module.css';
import { WalletPage } from '../../../lib/wallet-page.tsx';
import { sendTransferCode, sendWithdrawCode } from '../api/send.ts';
import { usePlaceOrderMutation } from '../api/send-queries.ts';
import { missingStep, SEND_STEP_PATHS, useSendFlow } from '../stores/send-flow.ts';
import { EmailCodeField } from './email-code-field.tsx';

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
  // Asked once the server says the account has an authenticator app (FACTOR_REQUIRED): step-up.
  const [factorAsked, setFactorAsked] = useState(false);
  const [factorCode, setFactorCode] = useState('');
  // With a passkey on the account the step-up can be its answer instead of a code.
  const [passkeyOffered, setPasskeyOffered] = useState(false);
  useEffect(() => {
    if (!factorAsked || !passkeysSupported()) return;
    hasPasskeys().then(setPasskeyOffered, () => setPasskeyOffered(false));
  }, [factorAsked]);
  // The flow placed the order (and ended): its detail screen is next.
  if (placedPath) return <Navigate to={placedPath} replace />;
  const missing = missingStep('email-code', { draft, fundPassword }, me?.hasFundPassword === true);
  if (missing || !draft) return <Navigate to={SEND_STEP_PATHS[missing ?? 'form']} replace />;

  const placeOrder = (passkey?: PasskeyAnswer) =>
    place.mutate(
      { emailCode: code, factorCode: factorAsked && !passkey ? factorCode : '', ...(passkey ? { passkey } : {}) },
      {
        onError: (error) => {
          if (isApiError(error) && error.code === 'FACTOR_REQUIRED') setFactorAsked(true);
          if (isApiError(error) && error.code !== 'FACTOR_REQUIRED') setFactorCode('');
          // "Withdrawal failed" / "send failed" unless the server said why.
          const known = isApiError(error) && isKnownErrorCode(error.code);
          if (known) setProblem(errorMessage(error));
          else setProblem(draft.kind === 'withdrawal' ? t('verify.withdrawalFailed') : t('verify.sendFailed'));
        },
      },
    );

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!SIX_DIGITS.test(code)) return setProblem(t('verify.codeFormat'));
    setProblem(null);
    if (factorAsked && factorCode.trim() === '')
      return setProblem(errorMessage(new ApiError({ code: 'FACTOR_REQUIRED', message: '', status: 400 })));
    placeOrder();
  };

  const onPasskey = async () => {
    if (!SIX_DIGITS.test(code)) return setProblem(t('verify.codeFormat'));
    setProblem(null);
    try {
      placeOrder(await passkeyAnswer());
    } catch (error) {
      const name = (error as { name?: string }).name;
      setProblem(
        name === 'NotAllowedError' || name === 'AbortError' ? t('verify.passkeyCancelled') : errorMessage(error),
      );
    }
  };

  return (
    <WalletPage title={t('verify.emailTitle')} testId="wallet-verify-email" parent="/coinTopup/send/affirm">
      <form className={`${ui.card} ${ui.field}`} noValidate onSubmit={onSubmit}>
        <EmailCodeField
          value={code}
          onChange={setCode}
          send={draft.kind === 'send' ? sendTransferCode : sendWithdrawCode}
          testId="verify-email-code"
          sendTestId="verify-send-code"
        />
        {factorAsked && (
          <input
            className={ui.input}
            value={factorCode}
            onChange={(event) => setFactorCode(event.target.value)}
            autoComplete="one-time-code"
            autoCapitalize="off"
            spellCheck={false}
            aria-label={t('verify.totpLabel')}
            placeholder={t('verify.totpLabel')}
            data-testid="verify-totp-code"
          />
        )}
        {factorAsked && passkeyOffered && (
          <Button
            block
            fill="outline"
            onClick={() => void onPasskey()}
            disabled={place.isPending}
            data-testid="verify-passkey"
          >
            {t('verify.passkey')}
          </Button>
        )}
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
