import '../account.css';
import { useErrorMessage } from '@cw/shared-state/errors';
import Button from 'antd-mobile/es/components/button';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { freezeByLink } from '../api/freeze-api.ts';
import { AccountPage } from './account-page.tsx';

/**
 * /freeze#t=… — the "this was not me" link of a security mail, no sign-in needed. One press freezes:
 * the mail's link itself only opens this page, so a mail scanner that follows links does not freeze
 * every account it reads (the token stays in the fragment, out of server logs).
 */
export default function FreezeLinkScreen() {
  const { t } = useTranslation('host');
  const message = useErrorMessage();
  const token = new URLSearchParams(window.location.hash.slice(1)).get('t') ?? '';
  const [state, setState] = useState<'idle' | 'busy' | 'done' | { error: string }>('idle');

  const freeze = async () => {
    setState('busy');
    try {
      await freezeByLink(token);
      setState('done');
    } catch (error) {
      setState({ error: message(error) });
    }
  };

  return (
    <AccountPage title={t('account.freeze.title')} testId="freeze-link-screen">
      {state === 'done' ? (
        <p className="account-hint" data-testid="freeze-link-done">
          {t('account.freeze.linkDone')}
        </p>
      ) : (
        <div className="account-section">
          <p className="account-hint">{t('account.freeze.linkLead')}</p>
          {typeof state === 'object' && (
            <p className="account-hint" role="alert" data-testid="freeze-link-error">
              {state.error}
            </p>
          )}
          <Button
            block
            size="large"
            color="danger"
            loading={state === 'busy'}
            disabled={token === ''}
            onClick={() => void freeze()}
            data-testid="freeze-link-confirm"
          >
            {t('account.freeze.action')}
          </Button>
        </div>
      )}
    </AccountPage>
  );
}
