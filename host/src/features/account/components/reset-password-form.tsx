import Button from 'antd-mobile/es/components/button';
import { useTranslation } from 'react-i18next';
import { useResetForm } from '../hooks/use-reset-form.ts';
import { CodeField } from './code-field.tsx';
import { FormField } from './form-field.tsx';
import { NewPasswordFields } from './new-password-fields.tsx';
import { SubmitButton } from './submit-button.tsx';

/**
 * Reset the login password with an e-mail code (POST /api/auth/password/reset),
 * which ends every session; then log in again. `twoSteps` asks for the e-mail
 * and code first, then the new password (/forgetPassword).
 */
export function ResetPasswordForm({ twoSteps, testId }: { twoSteps: boolean; testId: string }) {
  const { t } = useTranslation('host');
  const { form, me, step, setStep, showStep1, showStep2, onSendCode, onSubmit, submitting } = useResetForm(twoSteps);
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
