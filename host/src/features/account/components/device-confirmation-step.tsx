import '../account.css';
import type { Me } from '@cw/shared-state/api';
import { useErrorMessage } from '@cw/shared-state/errors';
import Button from 'antd-mobile/es/components/button';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { confirmDevice, currentUser, deviceStatus, endPendingSignIn, resendDeviceMail } from '../api/device-api.ts';
import { useSubmit } from '../hooks/use-submit.ts';
import { notifyFail } from '../utils/notify.ts';
import { AccountPage } from './account-page.tsx';
import { FormField } from './form-field.tsx';
import { LanguageSwitch } from './language-switch.tsx';
import { RESEND_SECONDS, SendCodeButton } from './send-code-button.tsx';
import { SubmitButton } from './submit-button.tsx';

/** How often the screen asks whether the mail's link was opened elsewhere (a phone). */
export const DEVICE_POLL_MS = 3_000;

/**
 * "Check your e-mail": a sign-in from a browser never seen before waits for the code typed here or
 * the mail's link opened anywhere. The server keeps the state (GET /api/auth/device); this screen
 * polls it, so an approval on a phone moves it on. When the wait ends without an approval (15
 * minutes, a sign-out, a freeze), the user starts over.
 */
export function DeviceConfirmationStep({
  onConfirmed,
  onRestart,
}: {
  onConfirmed: (me: Me) => void;
  onRestart: () => void;
}) {
  const { t } = useTranslation('host');
  const message = useErrorMessage();
  const [code, setCode] = useState('');
  const [email, setEmail] = useState<string | null>(null);
  const confirm = useSubmit((typed: string) => confirmDevice(typed));
  const finished = useRef(false);
  const latest = useRef({ onConfirmed, onRestart });
  latest.current = { onConfirmed, onRestart };

  useEffect(() => {
    let active = true;
    const check = async () => {
      const status = await deviceStatus().catch(() => undefined);
      if (!active || finished.current || !status) return;
      if (status.state === 'pending') {
        setEmail(status.emailMasked);
        return;
      }
      // No longer waiting: approved by the link (the session now works) or ended.
      finished.current = true;
      const me = await currentUser().catch(() => undefined);
      if (!active) return;
      if (me) latest.current.onConfirmed(me);
      else {
        notifyFail(t('account.device.ended'));
        latest.current.onRestart();
      }
    };
    void check();
    const timer = window.setInterval(() => void check(), DEVICE_POLL_MS);
    return () => {
      active = false;
      window.clearInterval(timer);
    };
  }, [t]);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!/^\d{6}$/.test(code.trim())) return;
    confirm.mutate(code, {
      onSuccess: (me) => {
        finished.current = true;
        onConfirmed(me);
      },
      onError: (error) => {
        setCode('');
        notifyFail(message(error));
        if ((error as { status?: number }).status === 401) onRestart();
      },
    });
  };

  const resend = async () => {
    try {
      await resendDeviceMail();
      return RESEND_SECONDS;
    } catch (error) {
      notifyFail(message(error));
      return null;
    }
  };

  const cancel = () => {
    finished.current = true;
    void endPendingSignIn().finally(onRestart);
  };

  return (
    <AccountPage title={t('account.device.title')} testId="device-confirmation" right={<LanguageSwitch />}>
      <p className="account-lead" data-testid="device-confirmation-lead">
        {email ? t('account.device.leadTo', { email }) : t('account.device.lead')}
      </p>
      <p className="account-hint">{t('account.device.why')}</p>
      <form className="account-form" noValidate onSubmit={onSubmit}>
        <FormField
          name="deviceCode"
          label={t('account.device.code')}
          problem={undefined}
          extra={<SendCodeButton onSend={resend} testId="device-resend" alreadySent />}
        >
          <input
            className="account-input"
            value={code}
            onChange={(event) => setCode(event.target.value.replace(/\D/g, '').slice(0, 6))}
            autoComplete="one-time-code"
            inputMode="numeric"
            placeholder={t('account.device.codePlaceholder')}
            data-testid="device-code"
          />
        </FormField>
        <SubmitButton loading={confirm.isPending} testId="device-confirm">
          {t('account.device.confirm')}
        </SubmitButton>
        <Button block size="large" onClick={cancel} data-testid="device-cancel">
          {t('account.device.cancel')}
        </Button>
      </form>
      <p className="account-hint account-device-note">{t('account.device.notMe')}</p>
    </AccountPage>
  );
}
