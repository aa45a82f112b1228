import { useTranslation } from 'react-i18next';
import { FormField } from './form-field.tsx';

/**
 * The authenticator code under the password, on a device that saw this identifier need it: sent
 * with the password in one request (the server checks it only after a right password). Left empty,
 * the sign-in goes on to the usual code step; a recovery code typed here is carried to that step.
 */
export function LoginCodeField(props: { value: string; onChange: (value: string) => void }) {
  const { t } = useTranslation('host');
  return (
    <FormField name="loginCode" label={t('account.totp.code')} problem={undefined}>
      <input
        className="account-input"
        value={props.value}
        onChange={(event) => props.onChange(event.target.value)}
        autoComplete="one-time-code"
        inputMode="text"
        autoCapitalize="off"
        spellCheck={false}
        placeholder={t('account.totp.codePlaceholder')}
        data-testid="login-code"
        data-factor="totp"
      />
    </FormField>
  );
}
