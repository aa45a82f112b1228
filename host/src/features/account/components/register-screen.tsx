import '../account.css';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { FieldProblem } from '../hooks/use-form.ts';
import { useRegisterForm } from '../hooks/use-register-form.ts';
import { AccountPage } from './account-page.tsx';
import { CodeField } from './code-field.tsx';
import { CountryField } from './country-field.tsx';
import { FieldError } from './field-error.tsx';
import { FormField } from './form-field.tsx';
import { LanguageSwitch } from './language-switch.tsx';
import { NewPasswordFields } from './new-password-fields.tsx';
import { SubmitButton } from './submit-button.tsx';

type RegisterForm = ReturnType<typeof useRegisterForm>['form'];

/** User name, nickname and country of residence. */
function ProfileFields({ form }: { form: RegisterForm }) {
  const { t } = useTranslation('host');
  const { problems } = form;
  return (
    <>
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
    </>
  );
}

/** "I have read and agree to the user agreement", with its link and its error. */
function AgreementField(props: { agreed: boolean; onChange: (checked: boolean) => void; problem?: FieldProblem }) {
  const { t } = useTranslation('host');
  return (
    <>
      <div className="account-agree">
        <input
          id="agreement"
          type="checkbox"
          checked={props.agreed}
          onChange={(event) => props.onChange(event.target.checked)}
          aria-invalid={props.problem ? true : undefined}
          data-testid="signup-agree"
        />
        <label htmlFor="agreement">
          {t('account.agree.prefix')}{' '}
          <Link to="/agreement" data-testid="signup-agreement-link">
            {t('account.agree.link')}
          </Link>
        </label>
      </div>
      <FieldError name="agreement" problem={props.problem} />
    </>
  );
}

/** /signIn, the landing page: registration. Bundled with the host; keep it light. */
export function RegisterScreen() {
  const { t } = useTranslation('host');
  const { form, agreed, agree, agreementProblem, sendCode, onSubmit, submitting } = useRegisterForm();
  const { problems } = form;
  return (
    <AccountPage title={t('account.title.signIn')} backTo={false} testId="signup-screen" right={<LanguageSwitch />}>
      <p className="account-lead">{t('account.signIn.welcome')}</p>
      <form className="account-form" noValidate onSubmit={onSubmit}>
        <ProfileFields form={form} />
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
          onSend={sendCode}
          testIds={{ input: 'signup-code', send: 'signup-send-code' }}
        />
        <FormField name="inviteCode" label={t('account.field.inviteCode')} problem={problems.inviteCode}>
          <input
            {...form.input('inviteCode')}
            className="account-input"
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            maxLength={20}
            placeholder={t('account.placeholder.inviteCode')}
            data-testid="signup-invite"
          />
        </FormField>
        <AgreementField agreed={agreed} onChange={agree} problem={agreementProblem} />
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
