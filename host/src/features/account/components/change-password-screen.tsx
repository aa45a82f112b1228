import '../account.css';
import { useErrorMessage } from '@cw/shared-state/errors';
import { useSession } from '@cw/shared-state/session';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { useChangePasswordMutation } from '../api/account-queries.ts';
import { type ErrorFields, useForm } from '../hooks/use-form.ts';
import { checkConfirm, checkOldPassword, checkPassword } from '../utils/field-checks.ts';
import { notifyFail, notifySuccess } from '../utils/notify.ts';
import { AccountPage } from './account-page.tsx';
import { FormField } from './form-field.tsx';
import { NewPasswordFields } from './new-password-fields.tsx';
import { PasswordInput } from './password-input.tsx';
import { SubmitButton } from './submit-button.tsx';

const CHECKS = { oldPassword: checkOldPassword, password: checkPassword, confirmPassword: checkConfirm };
type Values = { oldPassword: string; password: string; confirmPassword: string };
const ERROR_FIELDS: ErrorFields<Values> = {
  WRONG_PASSWORD: 'oldPassword',
  WEAK_PASSWORD: 'password',
  COMMON_PASSWORD: 'password',
  PASSWORD_MATCHES_ACCOUNT: 'password',
  PASSWORD_UNCHANGED: 'password',
  PASSWORD_MISMATCH: 'confirmPassword',
};

/** /editLoginPwd (login needed): old password, new password and confirmation; other sessions end. */
export default function ChangePasswordScreen() {
  const { t } = useTranslation('host');
  const navigate = useNavigate();
  const message = useErrorMessage();
  const me = useSession((state) => state.me);
  const form = useForm<Values>({ oldPassword: '', password: '', confirmPassword: '' }, CHECKS);
  const change = useChangePasswordMutation();
  const submitting = change.isPending;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!form.validate() || submitting) return;
    change.mutate(form.values, {
      onSuccess: () => {
        notifySuccess(t('account.password.changed'));
        navigate('/securitySettings', { replace: true });
      },
      onError: (error) => {
        if (!form.showServerError(error, ERROR_FIELDS)) notifyFail(message(error));
      },
    });
  };

  return (
    <AccountPage title={t('account.title.editLoginPwd')} testId="edit-login-pwd-screen">
      <form className="account-form" noValidate onSubmit={onSubmit}>
        <input type="hidden" name="username" autoComplete="username" value={me?.username ?? ''} readOnly />
        <FormField name="oldPassword" label={t('account.field.oldPassword')} problem={form.problems.oldPassword}>
          <PasswordInput
            {...form.input('oldPassword')}
            autoComplete="current-password"
            placeholder={t('account.placeholder.oldPassword')}
            data-testid="edit-pwd-old"
          />
        </FormField>
        <NewPasswordFields
          form={form}
          variant="new"
          testIds={{ password: 'edit-pwd-new', confirm: 'edit-pwd-confirm' }}
        />
        <SubmitButton loading={submitting} testId="edit-pwd-submit">
          {t('account.action.confirmChange')}
        </SubmitButton>
      </form>
      <p className="account-links account-links--center">
        <Link to="/editUserPassword" data-testid="edit-pwd-reset-by-email">
          {t('account.security.resetByEmail')}
        </Link>
      </p>
    </AccountPage>
  );
}
