import { useErrorMessage } from '@cw/shared-state/errors';
import { useSession, useUserStore } from '@cw/shared-state/session';
import Button from 'antd-mobile/es/components/button';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { resetPassword } from '../api/account-api.ts';
import { type ErrorFields, useForm } from '../hooks/use-form.ts';
import { useSendCode } from '../hooks/use-send-code.ts';
import { useSubmit } from '../hooks/use-submit.ts';
import { checkCode, checkConfirm, checkEmail, checkPassword } from '../utils/field-checks.ts';
import { notifyFail, notifySuccess } from '../utils/notify.ts';
import { CodeField } from './code-field.tsx';
import { FormField } from './form-field.tsx';
import { NewPasswordFields } from './new-password-fields.tsx';
import { SubmitButton } from './submit-button.tsx';

const CHECKS = { email: checkEmail, code: checkCode, password: checkPassword, confirmPassword: checkConfirm };
type Values = { email: string; code: string; password: string; confirmPassword: string };
const ERROR_FIELDS: ErrorFields<Values> = {
  WRONG_VERIFICATION_CODE: 'code',
  VERIFICATION_CODE_EXPIRED: 'code',
  VERIFICATION_CODE_NOT_REQUESTED: 'code',
  WEAK_PASSWORD: 'password',
  COMMON_PASSWORD: 'password',
  PASSWORD_MISMATCH: 'confirmPassword',
};
const FIRST_STEP: (keyof Values)[] = ['email', 'code'];

/**
 * Reset the login password with an e-mail code (POST /api/auth/password/reset),
 * which ends every session; then log in again. `twoSteps` asks for the e-mail
 * and code first, then the new password (/forgetPassword).
 */
export function ResetPasswordForm({ twoSteps, testId }: { twoSteps: boolean; testId: string }) {
  const { t } = useTranslation('host');
  const navigate = useNavigate();
  const message = useErrorMessage();
  const me = useSession((state) => state.me);
  const signedOut = useSession((state) => state.signedOut);
  const rememberedEmail = useUserStore((state) => state.user.email);
  const setEmail = useUserStore((state) => state.setEmail);
  const form = useForm<Values>(
    { email: me?.email ?? rememberedEmail, code: '', password: '', confirmPassword: '' },
    CHECKS,
  );
  const [step, setStep] = useState<1 | 2>(1);
  const submit = useSubmit(resetPassword);
  const submitting = submit.isPending;
  const showFieldError = (error: unknown) => {
    const shown = form.showServerError(error, ERROR_FIELDS);
    if (shown && twoSteps && ERROR_FIELDS[(error as { code: string }).code] === 'code') setStep(1);
    return shown;
  };
  const requestCode = useSendCode('reset_password', showFieldError);
  const showStep1 = !twoSteps || step === 1;
  const showStep2 = !twoSteps || step === 2;

  const onSendCode = async () => {
    if (!form.validate(['email'])) return null;
    setEmail(form.values.email.trim());
    return requestCode(form.values.email.trim());
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (twoSteps && step === 1) {
      if (form.validate(FIRST_STEP)) setStep(2);
      return;
    }
    if (!form.validate()) return;
    submit.mutate(form.values, {
      onSuccess: () => {
        signedOut();
        notifySuccess(t('account.reset.done'));
        navigate('/login', { replace: true });
      },
      onError: (error) => {
        if (!showFieldError(error)) notifyFail(message(error));
      },
    });
  };

  return (
    <form className="account-form" noValidate onSubmit={onSubmit} data-testid={testId}>
      {twoSteps && (
        <p className="account-hint">{step === 1 ? t('account.reset.stepEmail') : t('account.reset.stepPassword')}</p>
      )}
      {showStep1 && (
        <>
          <FormField name="email" label={t('account.field.email')} problem={form.problems.email}>
            <input
              {...form.input('email')}
              className="account-input"
              type="email"
              inputMode="email"
              autoComplete="email"
              autoCapitalize="off"
              spellCheck={false}
              readOnly={me !== null}
              placeholder={t('account.placeholder.email')}
              data-testid="reset-email"
            />
          </FormField>
          <CodeField
            input={form.input('code')}
            problem={form.problems.code}
            onSend={onSendCode}
            testIds={{ input: 'reset-code', send: 'reset-send-code' }}
          />
        </>
      )}
      {showStep2 && (
        <>
          {/* A hidden user name lets password managers file the new password under the right account. */}
          <input type="hidden" name="username" autoComplete="username" value={form.values.email} readOnly />
          <NewPasswordFields
            form={form}
            variant="new"
            testIds={{ password: 'reset-password', confirm: 'reset-confirm' }}
          />
        </>
      )}
      <SubmitButton loading={submitting} testId="reset-submit">
        {twoSteps && step === 1 ? t('account.action.next') : t('account.action.submit')}
      </SubmitButton>
      {twoSteps && step === 2 && (
        <Button block fill="none" onClick={() => setStep(1)} data-testid="reset-back">
          {t('account.action.back')}
        </Button>
      )}
    </form>
  );
}
