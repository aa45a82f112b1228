import '../account.css';
import type { Me } from '@cw/shared-state/api';
import { useErrorMessage } from '@cw/shared-state/errors';
import { loginFactorWithPasskey, type SignInResult, signInWithPasskey } from '@cw/shared-state/passkeys';
import { takeReturnTo, useSession, useUserStore } from '@cw/shared-state/session';
import Button from 'antd-mobile/es/components/button';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { login, loginFactor } from '../api/account-api.ts';
import { factorKinds } from '../api/factor-kinds.ts';
import { useCodeIdentifier } from '../hooks/use-code-identifier.ts';
import { type ErrorFields, useForm } from '../hooks/use-form.ts';
import { usePasskeyAutofill } from '../hooks/use-passkey-autofill.ts';
import { usePasskeysSupported } from '../hooks/use-passkeys-supported.ts';
import { useSubmit } from '../hooks/use-submit.ts';
import { AFTER_LOGIN_PATH } from '../paths.ts';
import { rememberNeedsCode } from '../utils/code-identifiers.ts';
import { checkIdentifier, checkLoginPassword } from '../utils/field-checks.ts';
import { notifyFail, notifySuccess } from '../utils/notify.ts';
import { AccountPage } from './account-page.tsx';
import { DeviceConfirmationStep } from './device-confirmation-step.tsx';
import { FormField } from './form-field.tsx';
import { InAppBrowserNotice } from './in-app-browser-notice.tsx';
import { LanguageSwitch } from './language-switch.tsx';
import { LoginCodeField } from './login-code-field.tsx';
import { PasswordInput } from './password-input.tsx';
import { SubmitButton } from './submit-button.tsx';

const CHECKS = { identifier: checkIdentifier, password: checkLoginPassword };
type Values = { identifier: string; password: string };
const ERROR_FIELDS: ErrorFields<Values> = { INVALID_CREDENTIALS: 'password' };
/** A code sent with the password refused as on the code step: the sign-in waits there for another. */
const FACTOR_REFUSALS = new Set(['WRONG_FACTOR_CODE', 'FACTOR_CODE_USED', 'FACTOR_THROTTLED']);
const isFactorRefusal = (error: unknown) => FACTOR_REFUSALS.has((error as { code?: string }).code ?? '');

/** /login: e-mail or user name + password; returns to the page that asked for a login. */
export default function LoginScreen() {
  const { t } = useTranslation('host');
  const navigate = useNavigate();
  const message = useErrorMessage();
  const setEmail = useUserStore((state) => state.setEmail);
  const signedIn = useSession((state) => state.signedIn);
  const form = useForm<Values>({ identifier: '', password: '' }, CHECKS, () => ({
    identifier: useUserStore.getState().user.email,
  }));
  const submit = useSubmit(({ identifier, password, totpCode }: Values & { totpCode: string | undefined }) =>
    login(identifier, password, totpCode),
  );
  // A returning device that saw this identifier need the app's code asks for it under the password.
  const withCode = useCodeIdentifier(form.values.identifier);
  const [loginCode, setLoginCode] = useState('');
  // A code typed for one identifier is not carried over to another.
  useEffect(() => setLoginCode(''), [form.values.identifier]);
  // The second step (an authenticator app is on): the password was right, the code comes next.
  const [factorStep, setFactorStep] = useState(false);
  const [factorCode, setFactorCode] = useState('');
  // A passkey-only account (no app) is asked for its passkey or a recovery code, never an app code.
  const [noApp, setNoApp] = useState(false);
  const factor = useSubmit((code: string) => loginFactor(code));
  // A passkey: a password-less sign-in (both factors), or the second step after the password.
  const passkey = useSubmit((step: 'signIn' | 'factor') =>
    step === 'signIn' ? signInWithPasskey() : loginFactorWithPasskey(),
  );
  const withPasskey = usePasskeysSupported();
  // A browser never seen before: the sign-in waits for the e-mailed code or link (issue 31).
  const [deviceStep, setDeviceStep] = useState(false);

  const submitting = submit.isPending || factor.isPending || passkey.isPending;

  const done = (result: SignInResult) => {
    if ('deviceConfirmationRequired' in result) {
      setFactorStep(false);
      setDeviceStep(true);
      return;
    }
    signedInAs(result);
  };
  const signedInAs = (me: Me) => {
    setEmail(me.email);
    signedIn(me);
    notifySuccess(t('account.login.success'));
    navigate(takeReturnTo(AFTER_LOGIN_PATH), { replace: true });
  };
  usePasskeyAutofill(withPasskey && !factorStep && !deviceStep, done);

  const onPasskey = (step: 'signIn' | 'factor') =>
    passkey.mutate(step, {
      onSuccess: done,
      onError: (error) => {
        const name = (error as { name?: string }).name;
        notifyFail(
          name === 'NotAllowedError' || name === 'AbortError' ? t('account.passkey.cancelled') : message(error),
        );
        if ((error as { status?: number }).status === 401 && step === 'factor') setFactorStep(false);
      },
    });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (factorStep) {
      if (factorCode.trim() === '') return;
      factor.mutate(factorCode, {
        onSuccess: done,
        onError: (error) => {
          setFactorCode('');
          notifyFail(message(error));
          // The pending sign-in lasts 5 minutes: when it is gone, start over with the password.
          if ((error as { status?: number }).status === 401) setFactorStep(false);
        },
      });
      return;
    }
    if (!form.validate()) return;
    const { identifier } = form.values;
    const typed = withCode ? loginCode.trim() : '';
    // Only the app's 6 digits go with the password; anything else (a recovery code) to the code step.
    const totpCode = /^\d{6}$/.test(typed) ? typed : undefined;
    submit.mutate(
      { ...form.values, totpCode },
      {
        onSuccess: (result) => {
          setLoginCode('');
          if ('factorRequired' in result) {
            setFactorStep(true);
            if (typed !== '' && totpCode === undefined) setFactorCode(typed);
            factorKinds().then(
              (kinds) => {
                setNoApp(!kinds.totp);
                // Next time on this device, the code goes with the password (or no longer, app off).
                void rememberNeedsCode(identifier, kinds.totp);
              },
              () => setNoApp(false),
            );
            return;
          }
          // Signed in without a code: it needs none now. With one, the answer does not tell; kept.
          if (totpCode === undefined) void rememberNeedsCode(identifier, false);
          done(result);
        },
        onError: (error) => {
          if (totpCode !== undefined && isFactorRefusal(error)) {
            // The password was right: the pending sign-in waits on the usual code step.
            setLoginCode('');
            setNoApp(false);
            setFactorStep(true);
            notifyFail(message(error));
            return;
          }
          // A code is good for 30 s and belongs to this attempt: a retry after a wrong password must not
          // send it again (it would be charged as a wrong code on the owner's factor throttle).
          setLoginCode('');
          if (!form.showServerError(error, ERROR_FIELDS)) notifyFail(message(error));
        },
      },
    );
  };

  if (deviceStep) return <DeviceConfirmationStep onConfirmed={signedInAs} onRestart={() => setDeviceStep(false)} />;

  if (factorStep)
    return (
      <AccountPage title={t('account.title.login')} testId="login-screen" right={<LanguageSwitch />}>
        <p className="account-lead">{noApp ? t('account.reauth.factorLeadPasskey') : t('account.totp.loginLead')}</p>
        <form className="account-form" noValidate onSubmit={onSubmit}>
          <LoginCodeField
            name="factorCode"
            testId="login-factor-code"
            value={factorCode}
            onChange={setFactorCode}
            recovery={noApp}
          />
          <SubmitButton loading={submitting} testId="login-factor-submit">
            {t('account.action.login')}
          </SubmitButton>
          {withPasskey && (
            <Button
              block
              size="large"
              disabled={submitting}
              onClick={() => onPasskey('factor')}
              data-testid="login-factor-passkey"
            >
              {t('account.passkey.useForFactor')}
            </Button>
          )}
        </form>
      </AccountPage>
    );

  return (
    <AccountPage title={t('account.title.login')} testId="login-screen" right={<LanguageSwitch />}>
      <InAppBrowserNotice />
      <p className="account-lead">{t('account.login.welcome')}</p>
      <form className="account-form" noValidate onSubmit={onSubmit}>
        <FormField name="identifier" label={t('account.field.identifier')} problem={form.problems.identifier}>
          <input
            {...form.input('identifier')}
            className="account-input"
            autoComplete={withPasskey ? 'username webauthn' : 'username'}
            autoCapitalize="off"
            spellCheck={false}
            placeholder={t('account.placeholder.identifier')}
            data-testid="login-identifier"
          />
        </FormField>
        <FormField name="password" label={t('account.field.password')} problem={form.problems.password}>
          <PasswordInput
            {...form.input('password')}
            autoComplete="current-password"
            placeholder={t('account.placeholder.loginPassword')}
            data-testid="login-password"
          />
        </FormField>
        {withCode && <LoginCodeField name="loginCode" testId="login-code" value={loginCode} onChange={setLoginCode} />}
        <SubmitButton loading={submitting} testId="login-submit">
          {t('account.action.login')}
        </SubmitButton>
        {withPasskey && (
          <Button
            block
            size="large"
            disabled={submitting}
            onClick={() => onPasskey('signIn')}
            data-testid="login-passkey"
          >
            {t('account.passkey.signIn')}
          </Button>
        )}
      </form>
      <p className="account-links">
        <Link to="/forgetPassword" data-testid="login-forgot">
          {t('account.action.forgot')}
        </Link>
        <Link to="/signIn" data-testid="login-to-signup">
          {t('account.action.toSignIn')}
        </Link>
      </p>
    </AccountPage>
  );
}
