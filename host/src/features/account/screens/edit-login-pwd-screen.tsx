import '../account.css';
import { queryClient } from '@cw/shared-state/api';
import { useErrorMessage } from '@cw/shared-state/errors';
import { useSession } from '@cw/shared-state/session';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { changePassword } from '../account-api.ts';
import { AccountPage } from '../components/account-page.tsx';
import { FormField } from '../components/form-field.tsx';
import { NewPasswordFields } from '../components/new-password-fields.tsx';
import { PasswordInput } from '../components/password-input.tsx';
import { SESSIONS_QUERY_KEY } from '../components/sessions-list.tsx';
import { SubmitButton } from '../components/submit-button.tsx';
import { checkConfirm, checkOldPassword, checkPassword } from '../field-checks.ts';
import { type ErrorFields, useForm } from '../hooks/use-form.ts';
import { notifyFail, notifySuccess } from '../notify.ts';

const CHECKS = { oldPassword: checkOldPassword, password: checkPassword, confirmPassword: checkConfirm };
type Values = { oldPassword: string; password: string; confirmPassword: string };
const ERROR_FIELDS: ErrorFields<Values> = {
  WRONG_PASSWORD: 'oldPassword',
  WEAK_PASSWORD: 'password',
  COMMON_PASSWORD: 'password',
  PASSWORD_UNCHANGED: 'password',
  PASSWORD_MISMATCH: 'confirmPassword',
};

/** /editLoginPwd (login needed): old password, new password and confirmation; other sessions end. */
export default function EditLoginPwdScreen() {
  const { t } = useTranslation('host');
  const navigate = useNavigate();
  const message = useErrorMessage();
  const me = useSession((state) => state.me);
  const form = useForm<Values>({ oldPassword: '', password: '', confirmPassword: '' }, CHECKS);
  const [submitting, setSubmitting] = useState(false);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!form.validate() || submitting) return;
    setSubmitting(true);
    try {
      await changePassword(form.values);
      // The server ended the other sessions: the list must be fetched again.
      await queryClient.invalidateQueries({ queryKey: SESSIONS_QUERY_KEY });
      notifySuccess(t('account.password.changed'));
      navigate('/securitySettings', { replace: true });
    } catch (error) {
      if (!form.showServerError(error, ERROR_FIELDS)) notifyFail(message(error));
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <AccountPage title={t('account.title.editLoginPwd')} testId="edit-login-pwd-screen">
      <form className="account-form" noValidate onSubmit={(event) => void onSubmit(event)}>
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
