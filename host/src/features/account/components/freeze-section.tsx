import { useErrorMessage } from '@cw/shared-state/errors';
import { type PasskeyAnswer, passkeyAnswer, passkeysSupported } from '@cw/shared-state/passkeys';
import Button from 'antd-mobile/es/components/button';
import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { sendCode } from '../api/account-api.ts';
import { freezeAccount, freezeStatus, unfreeze } from '../api/freeze-api.ts';
import { notifyFail, notifySuccess } from '../utils/notify.ts';
import { FormField } from './form-field.tsx';
import { PasswordInput } from './password-input.tsx';
import { SendCodeButton } from './send-code-button.tsx';

type Status = Awaited<ReturnType<typeof freezeStatus>>;

/**
 * "Freeze my account" in security settings: one confirmation, then every session ends and nothing
 * may leave the account. A frozen account shows the unfreeze form (password, the app's or a recovery
 * code when on — or a passkey instead —, an e-mail code); the unfreeze takes effect after a hold, whose
 * end is shown.
 */
export function FreezeSection() {
  const { t, i18n } = useTranslation('host');
  const message = useErrorMessage();
  const navigate = useNavigate();
  const [status, setStatus] = useState<Status | null>(null);
  const [password, setPassword] = useState('');
  const [emailCode, setEmailCode] = useState('');
  const [factor, setFactor] = useState('');
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState(false);

  const load = useCallback(() => {
    freezeStatus().then(setStatus, (error: unknown) => notifyFail(message(error)));
  }, [message]);
  useEffect(load, []);

  const freeze = async () => {
    try {
      await freezeAccount();
      notifySuccess(t('account.freeze.done'));
      navigate('/login', { replace: true });
    } catch (error) {
      notifyFail(message(error));
    }
  };

  const askUnfreeze = async (passkey?: () => Promise<PasskeyAnswer>) => {
    setBusy(true);
    try {
      setStatus(await unfreeze({ password, emailCode, factor, passkey: passkey ? await passkey() : undefined }));
      notifySuccess(t('account.freeze.unfreezeAsked'));
    } catch (error) {
      notifyFail(message(error));
    } finally {
      setBusy(false);
    }
  };

  const onUnfreeze = (event: FormEvent) => {
    event.preventDefault();
    void askUnfreeze();
  };

  if (!status) return null;
  const when = (iso: string) => new Date(iso).toLocaleString(i18n.language);
  return (
    <div className="account-section" data-testid="freeze-section">
      <h2 className="account-section-title">{t('account.freeze.title')}</h2>
      {!status.frozen && (
        <>
          <p className="account-hint">{t('account.freeze.lead')}</p>
          {confirming ? (
            <>
              <p className="account-hint" role="alert">
                {t('account.freeze.confirm')}
              </p>
              <Button block color="danger" onClick={() => void freeze()} data-testid="freeze-account-confirm">
                {t('account.freeze.action')}
              </Button>
              <Button block onClick={() => setConfirming(false)} data-testid="freeze-account-cancel">
                {t('account.freeze.cancel')}
              </Button>
            </>
          ) : (
            <Button block color="danger" onClick={() => setConfirming(true)} data-testid="freeze-account">
              {t('account.freeze.action')}
            </Button>
          )}
        </>
      )}
      {status.frozen && status.thawsAt && (
        <p className="account-hint" data-testid="freeze-state">
          {t('account.freeze.thawing', { at: when(status.thawsAt) })}
        </p>
      )}
      {status.frozen && !status.thawsAt && (
        <form className="account-form" noValidate onSubmit={onUnfreeze}>
          <p className="account-hint" data-testid="freeze-state">
            {t('account.freeze.frozen', { at: status.frozenAt ? when(status.frozenAt) : '' })}
          </p>
          <FormField name="password" label={t('account.field.password')} problem={undefined}>
            <PasswordInput
              value={password}
              onChange={(event) => setPassword(event.target.value)}
              autoComplete="current-password"
              data-testid="unfreeze-password"
            />
          </FormField>
          <FormField name="totpCode" label={t('account.freeze.factor')} problem={undefined}>
            <input
              className="account-input"
              value={factor}
              onChange={(event) => setFactor(event.target.value)}
              autoComplete="one-time-code"
              placeholder={t('account.totp.codePlaceholder')}
              data-testid="unfreeze-factor"
            />
          </FormField>
          <FormField
            name="emailCode"
            label={t('account.freeze.emailCode')}
            problem={undefined}
            extra={
              <SendCodeButton
                testId="unfreeze-send-code"
                onSend={() =>
                  sendCode('unfreeze').then(
                    (r) => r.resendAfterSeconds,
                    (error: unknown) => {
                      notifyFail(message(error));
                      return null;
                    },
                  )
                }
              />
            }
          >
            <input
              className="account-input"
              value={emailCode}
              onChange={(event) => setEmailCode(event.target.value)}
              inputMode="numeric"
              autoComplete="one-time-code"
              data-testid="unfreeze-email-code"
            />
          </FormField>
          <p className="account-hint">{t('account.freeze.unfreezeLead')}</p>
          <Button block type="submit" color="primary" loading={busy} data-testid="unfreeze-submit">
            {t('account.freeze.unfreeze')}
          </Button>
          {passkeysSupported() && (
            <Button
              block
              disabled={busy}
              onClick={() => void askUnfreeze(() => passkeyAnswer('step_up'))}
              data-testid="unfreeze-passkey"
            >
              {t('account.freeze.unfreezeWithPasskey')}
            </Button>
          )}
        </form>
      )}
    </div>
  );
}
