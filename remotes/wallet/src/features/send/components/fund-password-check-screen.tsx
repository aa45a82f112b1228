import { useErrorMessage } from '@cw/shared-state/errors';
import { useTranslation } from '@cw/shared-state/i18n';
import { Navigate, useNavigate } from '@cw/shared-state/router';
import { PasswordField } from '@cw/shared-ui/password-field';
import { Button } from 'antd-mobile';
import { type FormEvent, useState } from 'react';
import { NAMESPACE } from '../../../i18n.ts';
import * as ui from '../../../lib/wallet-page.module.css';
import { WalletPage } from '../../../lib/wallet-page.tsx';
import { useVerifyFundPasswordMutation } from '../api/send-queries.ts';
import { missingStep, nextStep, SEND_STEP_PATHS, useSendFlow } from '../stores/send-flow.ts';

const FUND_PASSWORD = /^\d{6}$/;

/** /coinTopup/verification/pwd: the 6-digit fund password, checked by the server before the e-mail step. */
export default function FundPasswordCheckScreen() {
  const { t } = useTranslation(NAMESPACE);
  const errorMessage = useErrorMessage();
  const navigate = useNavigate();
  const draft = useSendFlow((s) => s.draft);
  const setFundPassword = useSendFlow((s) => s.setFundPassword);
  const [value, setValue] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const verify = useVerifyFundPasswordMutation();
  const missing = missingStep('fund-password', { draft, fundPassword: null }, true);
  if (missing) return <Navigate to={SEND_STEP_PATHS[missing]} replace />;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!FUND_PASSWORD.test(value)) {
      setProblem(t('verify.fundPasswordFormat'));
      return;
    }
    setProblem(null);
    verify.mutate(value, {
      onSuccess: () => {
        setFundPassword(value);
        void navigate(SEND_STEP_PATHS[nextStep('fund-password', true)], { replace: true });
      },
      onError: (error) => setProblem(errorMessage(error)),
    });
  };

  return (
    <WalletPage title={t('verify.pwdTitle')} testId="wallet-verify-pwd" parent="/coinTopup/send/affirm">
      <form className={`${ui.card} ${ui.field}`} noValidate onSubmit={onSubmit}>
        <label className={ui.label} htmlFor="wallet-fund-password">
          {t('verify.fundPassword')}
        </label>
        <PasswordField
          id="wallet-fund-password"
          value={value}
          onChange={(event) => setValue(event.target.value.replace(/\D/g, '').slice(0, 6))}
          inputMode="numeric"
          autoComplete="off"
          maxLength={6}
          placeholder={t('verify.fundPasswordPlaceholder')}
          data-testid="verify-fund-password"
        />
        {problem && (
          <p className={ui.error} role="alert" data-testid="verify-pwd-error">
            {problem}
          </p>
        )}
        <Button
          type="submit"
          block
          color="primary"
          size="large"
          loading={verify.isPending}
          data-testid="verify-pwd-submit"
        >
          {t('verify.next')}
        </Button>
        <Button block fill="none" color="primary" onClick={() => void navigate('/coinTopup/verification/capitalPwd')}>
          {t('verify.forgotFundPassword')}
        </Button>
      </form>
    </WalletPage>
  );
}
