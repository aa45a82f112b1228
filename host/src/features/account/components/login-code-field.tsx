import { useTranslation } from 'react-i18next';
import { FormField } from './form-field.tsx';

/**
 * A sign-in's code input: the authenticator code (or, with `recovery`, a recovery code for an account
 * without the app). Used by the code step, and under the password on a device that saw this identifier
 * need a code: sent with the password in one request (the server checks it only after a right
 * password); left empty, the sign-in goes on to the code step, where a recovery code typed here lands.
 */
export function LoginCodeField(props: {
  name: string;
  testId: string;
  value: string;
  onChange: (value: string) => void;
  recovery?: boolean;
}) {
  const { t } = useTranslation('host');
  return (
    <FormField
      name={props.name}
      label={props.recovery ? t('account.reauth.recoveryCode') : t('account.totp.code')}
      problem={undefined}
    >
      <input
        className="account-input"
        value={props.value}
        onChange={(event) => props.onChange(event.target.value)}
        autoComplete="one-time-code"
        inputMode="text"
        autoCapitalize="off"
        spellCheck={false}
        placeholder={props.recovery ? t('account.reauth.recoveryCodePlaceholder') : t('account.totp.codePlaceholder')}
        data-testid={props.testId}
        data-factor={props.recovery ? 'recovery' : 'totp'}
      />
    </FormField>
  );
}
