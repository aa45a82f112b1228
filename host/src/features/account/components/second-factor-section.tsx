import { ApiError } from '@cw/shared-state/api';
import { useErrorMessage } from '@cw/shared-state/errors';
import Button from 'antd-mobile/es/components/button';
import { QRCodeSVG } from 'qrcode.react';
import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  confirmTotp,
  newRecoveryCodes,
  reauthenticate,
  removeTotp,
  securityStatus,
  startTotp,
} from '../api/account-api.ts';
import { notifyFail, notifySuccess } from '../utils/notify.ts';
import { FormField } from './form-field.tsx';
import { PasswordInput } from './password-input.tsx';

type Status = Awaited<ReturnType<typeof securityStatus>>;
type Step =
  | { kind: 'idle' }
  | { kind: 'reauth'; after: () => Promise<void> }
  | { kind: 'enrol'; secret: string; uri: string }
  | { kind: 'remove' }
  | { kind: 'codes'; codes: string[] };

/**
 * The authenticator app in security settings: set it up (QR code or the typed secret, on after one
 * code), see the recovery codes once, make new ones, remove it. Each change first proves the password
 * (and the code) again when the last proof is over 5 minutes old (REAUTH_REQUIRED).
 */
export function SecondFactorSection() {
  const { t } = useTranslation('host');
  const message = useErrorMessage();
  const [status, setStatus] = useState<Status | null>(null);
  const [step, setStep] = useState<Step>({ kind: 'idle' });
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);

  const load = useCallback(() => {
    securityStatus().then(setStatus, (error: unknown) => notifyFail(message(error)));
  }, [message]);
  useEffect(load, []);

  /** Runs a change; when the server asks for a fresh proof, asks for it and then runs it again. */
  const guarded = async (action: () => Promise<void>) => {
    setBusy(true);
    try {
      await action();
    } catch (error) {
      if (error instanceof ApiError && error.code === 'REAUTH_REQUIRED') setStep({ kind: 'reauth', after: action });
      else notifyFail(message(error));
    } finally {
      setBusy(false);
    }
  };

  const enrol = () => guarded(async () => setStep({ kind: 'enrol', ...(await startTotp()) }));
  const regenerate = () => guarded(async () => setStep({ kind: 'codes', codes: await newRecoveryCodes() }));

  // The removal's own code must be a fresh one: prove first, then ask for the code.
  const askRemove = () => {
    const fresh = status?.reauthenticatedUntil && Date.parse(status.reauthenticatedUntil) > Date.now();
    const remove = async () => setStep({ kind: 'remove' });
    setStep(fresh ? { kind: 'remove' } : { kind: 'reauth', after: remove });
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const typed = code;
    setCode('');
    if (step.kind === 'reauth') {
      const after = step.after;
      void guarded(async () => {
        await reauthenticate(password, typed);
        setPassword('');
        setStep({ kind: 'idle' });
        await after();
      });
    } else if (step.kind === 'enrol') {
      void guarded(async () => {
        const codes = await confirmTotp(typed);
        notifySuccess(t('account.totp.enabled'));
        setStep({ kind: 'codes', codes });
        load();
      });
    } else if (step.kind === 'remove') {
      void guarded(async () => {
        await removeTotp(typed);
        notifySuccess(t('account.totp.removed'));
        setStep({ kind: 'idle' });
        load();
      });
    }
  };

  const codeField = (label: string) => (
    <FormField name="totpCode" label={label} problem={undefined}>
      <input
        className="account-input"
        value={code}
        onChange={(event) => setCode(event.target.value)}
        autoComplete="one-time-code"
        autoCapitalize="off"
        spellCheck={false}
        placeholder={t('account.totp.codePlaceholder')}
        data-testid="totp-code"
      />
    </FormField>
  );

  if (!status) return null;
  return (
    <div className="account-section" data-testid="second-factor-section">
      <h2 className="account-section-title">{t('account.totp.title')}</h2>
      <p className="account-hint" data-testid="totp-state">
        {status.totp ? t('account.totp.on', { left: status.recoveryCodesLeft }) : t('account.totp.off')}
      </p>
      {step.kind === 'codes' && (
        <div data-testid="recovery-codes">
          <p className="account-hint">{t('account.totp.codesOnce')}</p>
          <pre className="account-recovery-codes">{step.codes.join('\n')}</pre>
          <Button block onClick={() => setStep({ kind: 'idle' })} data-testid="recovery-codes-done">
            {t('account.totp.saved')}
          </Button>
        </div>
      )}
      {step.kind === 'enrol' && (
        <form className="account-form" noValidate onSubmit={onSubmit}>
          <p className="account-hint">{t('account.totp.scan')}</p>
          <QRCodeSVG value={step.uri} size={180} data-testid="totp-qr" />
          <p className="account-hint">{t('account.totp.orType')}</p>
          <code className="account-totp-secret" data-testid="totp-secret">
            {step.secret}
          </code>
          {codeField(t('account.totp.firstCode'))}
          <Button block type="submit" color="primary" loading={busy} data-testid="totp-confirm">
            {t('account.totp.turnOn')}
          </Button>
        </form>
      )}
      {(step.kind === 'reauth' || step.kind === 'remove') && (
        <form className="account-form" noValidate onSubmit={onSubmit}>
          {step.kind === 'reauth' && (
            <>
              <p className="account-hint">{t('account.totp.reauthLead')}</p>
              <FormField name="password" label={t('account.field.password')} problem={undefined}>
                <PasswordInput
                  value={password}
                  onChange={(event) => setPassword(event.target.value)}
                  autoComplete="current-password"
                  data-testid="reauth-password"
                />
              </FormField>
            </>
          )}
          {(step.kind === 'remove' || status.totp) && codeField(t('account.totp.code'))}
          <Button block type="submit" color="primary" loading={busy} data-testid="factor-submit">
            {t('account.totp.confirm')}
          </Button>
        </form>
      )}
      {step.kind === 'idle' && !status.totp && (
        <Button block loading={busy} onClick={() => void enrol()} data-testid="totp-enrol">
          {t('account.totp.setUp')}
        </Button>
      )}
      {step.kind === 'idle' && status.totp && (
        <>
          <Button block loading={busy} onClick={() => void regenerate()} data-testid="recovery-regenerate">
            {t('account.totp.newCodes')}
          </Button>
          <Button block onClick={askRemove} data-testid="totp-remove">
            {t('account.totp.remove')}
          </Button>
        </>
      )}
    </div>
  );
}
