import { useErrorMessage } from '@cw/shared-state/errors';
import Button from 'antd-mobile/es/components/button';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { setFundPassword } from '../api/account-api.ts';
import { type ErrorFields, useForm } from '../hooks/use-form.ts';
import { useSendCode } from '../hooks/use-send-code.ts';
import { useSubmit } from '../hooks/use-submit.ts';
import { checkCode, checkFundConfirm, checkFundPassword } from '../utils/field-checks.ts';
import { notifyFail, notifySuccess } from '../utils/notify.ts';
import { CodeField } from './code-field.tsx';
import { FormField } from './form-field.tsx';
import { PasswordInput } from './password-input.tsx';

const CHECKS = { code: checkCode, fundPassword: checkFundPassword, confirmFundPassword: checkFundConfirm };
type Values = { code: string; fundPassword: string; confirmFundPassword: string };
const ERROR_FIELDS: ErrorFields<Values> = {
  WRONG_VERIFICATION_CODE: 'code',
  VERIFICATION_CODE_EXPIRED: 'code',
  VERIFICATION_CODE_NOT_REQUESTED: 'code',
  PASSWORD_MISMATCH: 'confirmFundPassword',
  GUESSABLE_FUND_PASSWORD: 'fundPassword',
};

/** Set or change the 6-digit fund password with a code sent to the account's e-mail. */
export function FundPasswordForm(props: { emailMasked: string; onDone: () => void }) {
  const { t } = useTranslation('host');
  const message = useErrorMessage();
  const form = useForm<Values>({ code: '', fundPassword: '', confirmFundPassword: '' }, CHECKS);
  const submit = useSubmit(setFundPassword);
  const submitting = submit.isPending;
  const requestCode = useSendCode('fund_password', (error) => form.showServerError(error, ERROR_FIELDS));

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!form.validate()) return;
    submit.mutate(form.values, {
      onSuccess: () => {
        notifySuccess(t('account.security.fundSaved'));
        props.onDone();
      },
      onError: (error) => {
        if (!form.showServerError(error, ERROR_FIELDS)) notifyFail(message(error));
      },
    });
  };

  return (
    <form className="account-form" noValidate onSubmit={onSubmit} data-testid="fund-password-form">
      {/* Two sentences, two lines: never run together, whatever the language's punctuation. */}
      <p className="account-hint" data-testid="fund-hint">
        {t('account.security.fundHint')}
        <br />
        {t('account.code.sentTo', { email: props.emailMasked })}
      </p>
      <CodeField
        input={form.input('code')}
        problem={form.problems.code}
        onSend={() => requestCode()}
        testIds={{ input: 'fund-code', send: 'fund-send-code' }}
      />
      <FormField name="fundPassword" label={t('account.field.fundPassword')} problem={form.problems.fundPassword}>
        <PasswordInput
          {...form.input('fundPassword')}
          autoComplete="off"
          inputMode="numeric"
          maxLength={6}
          placeholder={t('account.placeholder.fundPassword')}
          data-testid="fund-password"
        />
      </FormField>
      <FormField
        name="confirmFundPassword"
        label={t('account.field.confirmFundPassword')}
        problem={form.problems.confirmFundPassword}
      >
        <PasswordInput
          {...form.input('confirmFundPassword')}
          autoComplete="off"
          inputMode="numeric"
          maxLength={6}
          placeholder={t('account.placeholder.confirmFundPassword')}
          data-testid="fund-confirm"
        />
      </FormField>
      <Button type="submit" color="primary" block loading={submitting} data-testid="fund-submit">
        {t('account.action.submit')}
      </Button>
    </form>
  );
}
