import { useErrorMessage } from '@cw/shared-state/errors';
import { passkeyAnswer, passkeysSupported } from '@cw/shared-state/passkeys';
import Button from 'antd-mobile/es/components/button';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { reauthenticate, reauthenticateWithPasskey } from '../api/account-api.ts';
import { notifyFail } from '../utils/notify.ts';
import { FormField } from './form-field.tsx';
import { PasswordInput } from './password-input.tsx';

/**
 * "Confirm it is you" before a security change (REAUTH_REQUIRED): the password and, when a factor is
 * on, its code — or a passkey alone. `onProved` runs once the server accepted the proof.
 */
export function ReauthForm({ testId, onProved }: { testId: string; onProved: () => void }) {
  const { t } = useTranslation('host');
  const message = useErrorMessage();
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);

  const prove = async (proof: () => Promise<void>) => {
    setBusy(true);
    try {
      await proof();
      setPassword('');
      setCode('');
      onProved();
    } catch (error) {
      notifyFail(message(error));
    } finally {
      setBusy(false);
    }
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!busy) void prove(() => reauthenticate(password, code));
  };

  return (
    <form className="account-form account-reauth" noValidate onSubmit={onSubmit} data-testid={testId}>
      <p className="account-hint">{t('account.totp.reauthLead')}</p>
      <FormField name="reauthPassword" label={t('account.field.password')} problem={undefined}>
        <PasswordInput
          id="reauthPassword"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          autoComplete="current-password"
          data-testid={`${testId}-password`}
        />
      </FormField>
      <FormField name="reauthCode" label={t('account.totp.code')} problem={undefined}>
        <input
          id="reauthCode"
          className="account-input"
          value={code}
          onChange={(event) => setCode(event.target.value)}
          autoComplete="one-time-code"
          autoCapitalize="off"
          spellCheck={false}
          placeholder={t('account.allowlist.codeIfOn')}
          data-testid={`${testId}-code`}
        />
      </FormField>
      <Button block type="submit" color="primary" loading={busy} data-testid={`${testId}-submit`}>
        {t('account.totp.confirm')}
      </Button>
      {passkeysSupported() && (
        <Button
          block
          disabled={busy}
          onClick={() => void prove(async () => reauthenticateWithPasskey(await passkeyAnswer('reauth')))}
          data-testid={`${testId}-passkey`}
        >
          {t('account.passkey.useForReauth')}
        </Button>
      )}
    </form>
  );
}
