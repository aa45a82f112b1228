import { useTranslation } from 'react-i18next';
import { useSecurityOverview } from '../api/overview-queries.ts';
import { FormField } from './form-field.tsx';

/**
 * The code under the password of a re-authentication, for the factor the account has: the
 * authenticator app's code when the app is on; a recovery code for a passkey-only account (its
 * passkey button is the first way; an app-code field would ask for something it does not have);
 * nothing when no factor is on. Until the overview has answered, the app's field (as before).
 */
export function ReauthCodeField(props: { value: string; onChange: (value: string) => void; testId: string }) {
  const { t } = useTranslation('host');
  const factors = useSecurityOverview().data?.factors;
  if (factors && !factors.totp && factors.passkeys === 0) return null;
  const passkeyOnly = factors !== undefined && !factors.totp;
  return (
    <FormField
      name={passkeyOnly ? 'recoveryCode' : 'totpCode'}
      label={passkeyOnly ? t('account.reauth.recoveryCode') : t('account.totp.code')}
      problem={undefined}
    >
      <input
        className="account-input"
        value={props.value}
        onChange={(event) => props.onChange(event.target.value)}
        autoComplete={passkeyOnly ? 'off' : 'one-time-code'}
        autoCapitalize="off"
        spellCheck={false}
        placeholder={passkeyOnly ? t('account.reauth.recoveryCodePlaceholder') : t('account.totp.codePlaceholder')}
        data-testid={props.testId}
        data-factor={passkeyOnly ? 'recovery' : 'totp'}
      />
    </FormField>
  );
}
