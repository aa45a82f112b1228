import { ApiError } from '@cw/shared-state/api';
import { useErrorMessage } from '@cw/shared-state/errors';
import Button from 'antd-mobile/es/components/button';
import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { reauthenticate } from '../api/account-api.ts';
import { type AllowlistState, allowlistStatus, setAllowlist } from '../api/security-api.ts';
import { notifyFail, notifySuccess } from '../utils/notify.ts';
import { FormField } from './form-field.tsx';
import { PasswordInput } from './password-input.tsx';
import { ReauthCodeField } from './reauth-code-field.tsx';

/**
 * The withdrawal allowlist in security settings: its state (off, on, or on until a turn-off takes
 * effect), and the switch. Turning it on is at once; off waits the hold. Either needs the password
 * (and the app's code) proved within 5 minutes: on REAUTH_REQUIRED it asks, then tries again.
 */
export function AllowlistSection() {
  const { t, i18n } = useTranslation('host');
  const message = useErrorMessage();
  const [state, setState] = useState<AllowlistState | null>(null);
  const [pending, setPending] = useState<boolean | null>(null);
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);

  const load = useCallback(() => {
    allowlistStatus().then(setState, (error: unknown) => notifyFail(message(error)));
  }, [message]);
  useEffect(load, []);

  const toggle = async (on: boolean) => {
    setBusy(true);
    try {
      setState(await setAllowlist(on));
      setPending(null);
      notifySuccess(on ? t('account.allowlist.turnedOn') : t('account.allowlist.turningOff'));
    } catch (error) {
      if (error instanceof ApiError && error.code === 'REAUTH_REQUIRED') setPending(on);
      else notifyFail(message(error));
    } finally {
      setBusy(false);
    }
  };

  const onReauth = (event: FormEvent) => {
    event.preventDefault();
    if (pending === null) return;
    const on = pending;
    setBusy(true);
    reauthenticate(password, code)
      .then(() => {
        setPassword('');
        setCode('');
        return toggle(on);
      })
      .catch((error: unknown) => notifyFail(message(error)))
      .finally(() => setBusy(false));
  };

  if (!state) return null;
  const formatTime = (iso: string) =>
    new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
  // On with no turn-off pending; a pending turn-off is cancelled by turning it on again.
  const steadyOn = state.on && state.offAt === null;
  let text = t('account.allowlist.off');
  if (state.on)
    text = state.offAt ? t('account.allowlist.offAt', { time: formatTime(state.offAt) }) : t('account.allowlist.on');
  return (
    <div className="account-section" data-testid="allowlist-section">
      <h2 className="account-section-title">{t('account.allowlist.title')}</h2>
      <p className="account-hint" data-testid="allowlist-state">
        {text}
      </p>
      <p className="account-hint">{t('account.allowlist.explain', { hours: state.holdHours })}</p>
      {pending !== null ? (
        <form className="account-form" noValidate onSubmit={onReauth}>
          <p className="account-hint">{t('account.totp.reauthLead')}</p>
          <FormField name="password" label={t('account.field.password')} problem={undefined}>
            <PasswordInput
              value={password}
              onChange={(event) => setPassword(event.target.value)}
              autoComplete="current-password"
              data-testid="allowlist-reauth-password"
            />
          </FormField>
          <ReauthCodeField value={code} onChange={setCode} testId="allowlist-reauth-code" />
          <Button block type="submit" color="primary" loading={busy} data-testid="allowlist-reauth-submit">
            {t('account.totp.confirm')}
          </Button>
        </form>
      ) : (
        <Button block loading={busy} onClick={() => void toggle(!steadyOn)} data-testid="allowlist-toggle">
          {steadyOn
            ? t('account.allowlist.turnOff')
            : state.on
              ? t('account.allowlist.keepOn')
              : t('account.allowlist.turnOn')}
        </Button>
      )}
    </div>
  );
}
