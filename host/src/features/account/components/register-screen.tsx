import '../account.css';
import { useErrorMessage } from '@cw/shared-state/errors';
import { useSession, useUserStore } from '@cw/shared-state/session';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { register } from '../api/account-api.ts';
import { type ErrorFields, type FieldProblem, useForm } from '../hooks/use-form.ts';
import { useSendCode } from '../hooks/use-send-code.ts';
import { useSubmit } from '../hooks/use-submit.ts';
import {
  checkCode,
  checkConfirm,
  checkCountry,
  checkEmail,
  checkNickname,
  checkPassword,
  checkUsername,
} from '../utils/field-checks.ts';
import { notifyFail, notifySuccess } from '../utils/notify.ts';
import { AccountPage } from './account-page.tsx';
import { CodeField } from './code-field.tsx';
import { CountryField } from './country-field.tsx';
import { FieldError } from './field-error.tsx';
import { FormField } from './form-field.tsx';
import { LanguageSwitch } from './language-switch.tsx';
import { NewPasswordFields } from './new-password-fields.tsx';
import { SubmitButton } from './submit-button.tsx';

const CHECKS = {
  username: checkUsername,
  nickname: checkNickname,
  country: checkCountry,
  password: checkPassword,
  confirmPassword: checkConfirm,
  email: checkEmail,
  code: checkCode,
};

type Values = { [K in keyof typeof CHECKS]: string };

const ERROR_FIELDS: ErrorFields<Values> = {
  USERNAME_EXISTS: 'username',
  EMAIL_EXISTS: 'email',
  WEAK_PASSWORD: 'password',
  COMMON_PASSWORD: 'password',
  PASSWORD_MISMATCH: 'confirmPassword',
  WRONG_VERIFICATION_CODE: 'code',
  VERIFICATION_CODE_EXPIRED: 'code',
  VERIFICATION_CODE_NOT_REQUESTED: 'code',
};

/** /signIn, the landing page: registration. Bundled with the host; keep it light. */
export function RegisterScreen() {
  const { t } = useTranslation('host');
  const navigate = useNavigate();
  const message = useErrorMessage();
  const rememberedEmail = useUserStore((state) => state.user.email);
  const setEmail = useUserStore((state) => state.setEmail);
  const signedIn = useSession((state) => state.signedIn);
  const form = useForm<Values>(
    { username: '', nickname: '', country: '', password: '', confirmPassword: '', email: rememberedEmail, code: '' },
    CHECKS,
  );
  const [agreed, setAgreed] = useState(false);
  const [agreementProblem, setAgreementProblem] = useState<FieldProblem | undefined>();
  const submit = useSubmit(register);
  const submitting = submit.isPending;
  const requestCode = useSendCode('register', (error) => form.showServerError(error, ERROR_FIELDS));

  const onSendCode = async () => {
    if (!form.validate(['email'])) return null;
    const email = form.values.email.trim();
    setEmail(email);
    return requestCode(email);
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const valid = form.validate();
    setAgreementProblem(agreed ? undefined : { rule: 'agreement.required' });
    if (!valid || !agreed) return;
    submit.mutate(form.values, {
      onSuccess: (me) => {
        setEmail(me.email);
        signedIn(me);
        notifySuccess(t('account.signIn.success'));
        navigate('/appDown', { replace: true });
      },
      onError: (error) => {
        if (!form.showServerError(error, ERROR_FIELDS)) notifyFail(message(error, 'REGISTRATION_FAILED'));
      },
    });
  };

  const { problems } = form;
  return (
    <AccountPage title={t('account.title.signIn')} backTo={false} testId="signup-screen" right={<LanguageSwitch />}>
      <p className="account-lead">{t('account.signIn.welcome')}</p>
      <form className="account-form" noValidate onSubmit={onSubmit}>
        <FormField name="username" label={t('account.field.username')} problem={problems.username}>
          <input
            {...form.input('username')}
            className="account-input"
            autoComplete="username"
            autoCapitalize="off"
            spellCheck={false}
            maxLength={40}
            placeholder={t('account.placeholder.username')}
            data-testid="signup-username"
          />
        </FormField>
        <FormField name="nickname" label={t('account.field.nickname')} problem={problems.nickname}>
          <input
            {...form.input('nickname')}
            className="account-input"
            autoComplete="nickname"
            placeholder={t('account.placeholder.nickname')}
            data-testid="signup-nickname"
          />
        </FormField>
        <FormField name="country" label={t('account.field.country')} problem={problems.country}>
          <CountryField
            name="country"
            value={form.values.country}
            invalid={problems.country !== undefined}
            onChange={(code) => form.setValue('country', code)}
            testId="signup-country"
          />
        </FormField>
        <NewPasswordFields
          form={form}
          variant="first"
          testIds={{ password: 'signup-password', confirm: 'signup-confirm' }}
        />
        <FormField name="email" label={t('account.field.email')} problem={problems.email}>
          <input
            {...form.input('email')}
            className="account-input"
            type="email"
            inputMode="email"
            autoComplete="email"
            autoCapitalize="off"
            spellCheck={false}
            placeholder={t('account.placeholder.email')}
            data-testid="signup-email"
          />
        </FormField>
        <CodeField
          input={form.input('code')}
          problem={problems.code}
          onSend={onSendCode}
          testIds={{ input: 'signup-code', send: 'signup-send-code' }}
        />
        <div className="account-agree">
          <input
            id="agreement"
            type="checkbox"
            checked={agreed}
            onChange={(event) => {
              setAgreed(event.target.checked);
              if (event.target.checked) setAgreementProblem(undefined);
            }}
            aria-invalid={agreementProblem ? true : undefined}
            data-testid="signup-agree"
          />
          <label htmlFor="agreement">
            {t('account.agree.prefix')}{' '}
            <Link to="/agreement" data-testid="signup-agreement-link">
              {t('account.agree.link')}
            </Link>
          </label>
        </div>
        <FieldError name="agreement" problem={agreementProblem} />
        <SubmitButton loading={submitting} testId="signup-submit">
          {t('account.action.register')}
        </SubmitButton>
      </form>
      <p className="account-links">
        <Link to="/login" data-testid="signup-to-login">
          {t('account.action.toLogin')}
        </Link>
      </p>
    </AccountPage>
  );
}
