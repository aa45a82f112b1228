import { inAppWallet } from '@cw/shared-state/web3';
import NoticeBar from 'antd-mobile/es/components/notice-bar';
import { useTranslation } from 'react-i18next';

/**
 * Opened inside a wallet app's browser (an "Open in <wallet>" link, issue 33): that browser keeps its
 * own cookies, so the user is signed out here even when signed in in their phone's browser. Said
 * plainly, once, above the form.
 */
export function InAppBrowserNotice() {
  const { t } = useTranslation('host');
  const wallet = inAppWallet(typeof window === 'undefined' ? undefined : window);
  if (!wallet) return null;
  return (
    <div data-testid="login-in-app-browser" style={{ marginBottom: 12 }}>
      <NoticeBar content={t('account.login.inAppBrowser', { wallet })} color="info" wrap />
    </div>
  );
}
