import '../account.css';
import { ApiError } from '@cw/shared-state/api';
import { useErrorMessage } from '@cw/shared-state/errors';
import { passkeyAnswer, passkeysSupported } from '@cw/shared-state/passkeys';
import { useSession } from '@cw/shared-state/session';
import Button from 'antd-mobile/es/components/button';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { reauthenticate, reauthenticateWithPasskey } from '../api/account-api.ts';
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

/**
 * /editLoginPwd (login needed): old password, new password and confirmation; other sessions end unless
 * the user unticks it. A security change: when the last proof is over 5 minutes old (REAUTH_REQUIRED)
 * the typed old password proves it again, with the second factor (a code or a passkey) when on.
 */
export default function ChangePasswordScreen() {
  const { t } = useTranslation('host');
  const navigate = useNavigate();
  const message = useErrorMessage();
  const me = useSession((state) => state.me);
  const form = useForm<Values>({ oldPassword: '', password: '', confirmPassword: '' }, CHECKS);
  const change = useChangePasswordMutation();
  const [endOthers, setEndOthers] = useState(true);
  const [factorAsked, setFactorAsked] = useState(false);
  const [factorCode, setFactorCode] = useState('');
  const [proving, setProving] = useState(false);
  const submitting = change.isPending || proving;

  const failed = (error: unknown) => {
    if (!form.showServerError(error, ERROR_FIELDS)) notifyFail(message(error));
  };

  /** Proves the password (and factor) again, then changes it. */
  const proveAndChange = async (proof: () => Promise<void>) => {
    setProving(true);
    try {
      await proof();
      setFactorCode('');
      submitChange();
    } catch (error) {
      if (error instanceof ApiError && error.code === 'FACTOR_REQUIRED') setFactorAsked(true);
      else failed(error);
    } finally {
      setProving(false);
    }
  };

  const submitChange = () =>
    change.mutate(
      { ...form.values, endOtherSessions: endOthers },
      {
        onSuccess: () => {
          notifySuccess(t(endOthers ? 'account.password.changed' : 'account.password.changedKept'));
          navigate('/securitySettings', { replace: true });
        },
        onError: (error) => {
          if (error instanceof ApiError && error.code === 'REAUTH_REQUIRED')
            void proveAndChange(() => reauthenticate(form.values.oldPassword, factorCode));
          else failed(error);
        },
      },
    );

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!form.validate() || submitting) return;
    if (factorAsked) void proveAndChange(() => reauthenticate(form.values.oldPassword, factorCode));
    else submitChange();
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
        <label className="account-hint account-check">
          <input
            type="checkbox"
            checked={endOthers}
            onChange={(event) => setEndOthers(event.target.checked)}
            data-testid="edit-pwd-end-others"
          />{' '}
          {t('account.password.endOthers')}
        </label>
        {factorAsked && (
          <>
            <p className="account-hint">{t('account.password.factorLead')}</p>
            <FormField name="factorCode" label={t('account.totp.code')} problem={undefined}>
              <input
                className="account-input"
                value={factorCode}
                onChange={(event) => setFactorCode(event.target.value)}
                autoComplete="one-time-code"
                autoCapitalize="off"
                spellCheck={false}
                placeholder={t('account.totp.codePlaceholder')}
                data-testid="edit-pwd-factor-code"
              />
            </FormField>
            {passkeysSupported() && (
              <Button
                block
                disabled={submitting}
                onClick={() =>
                  void proveAndChange(async () => reauthenticateWithPasskey(await passkeyAnswer('reauth')))
                }
                data-testid="edit-pwd-passkey"
              >
                {t('account.passkey.useForReauth')}
              </Button>
            )}
          </>
        )}
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
