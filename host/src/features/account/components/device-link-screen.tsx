import '../account.css';
import { useErrorMessage } from '@cw/shared-state/errors';
import Button from 'antd-mobile/es/components/button';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { approveDeviceByLink } from '../api/device-api.ts';
import { AccountPage } from './account-page.tsx';

/**
 * /confirm-device#t=… — the approve link of a new-device mail, no sign-in needed (often opened on a
 * phone while the new browser waits). One press approves: the link itself only opens this page, so
 * a mail scanner that follows links approves nothing (the token stays in the fragment).
 */
export default function DeviceLinkScreen() {
  const { t } = useTranslation('host');
  const message = useErrorMessage();
  const token = new URLSearchParams(window.location.hash.slice(1)).get('t') ?? '';
  const [state, setState] = useState<'idle' | 'busy' | 'done' | { error: string }>('idle');

  const approve = async () => {
    setState('busy');
    try {
      await approveDeviceByLink(token);
      setState('done');
    } catch (error) {
      setState({ error: message(error) });
    }
  };

  return (
    <AccountPage title={t('account.device.linkTitle')} testId="device-link-screen">
      {state === 'done' ? (
        <p className="account-hint" data-testid="device-link-done">
          {t('account.device.linkDone')}
        </p>
      ) : (
        <div className="account-section">
          <p className="account-hint">{t('account.device.linkLead')}</p>
          {typeof state === 'object' && (
            <p className="account-hint" role="alert" data-testid="device-link-error">
              {state.error}
            </p>
          )}
          <Button
            block
            size="large"
            color="primary"
            loading={state === 'busy'}
            disabled={token === ''}
            onClick={() => void approve()}
            data-testid="device-link-approve"
          >
            {t('account.device.linkApprove')}
          </Button>
          <p className="account-hint account-device-note">{t('account.device.notMe')}</p>
        </div>
      )}
    </AccountPage>
  );
}
