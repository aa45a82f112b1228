import '../account.css';
import { useSession } from '@cw/shared-state/session';
import Button from 'antd-mobile/es/components/button';
import { CheckCircleFill } from 'antd-mobile-icons';
import { QRCodeSVG } from 'qrcode.react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { isMobileUserAgent } from '../../../frame/is-mobile.ts';
import { AFTER_LOGIN_PATH } from '../paths.ts';
import { AccountPage } from './account-page.tsx';

/** /appDown: registration succeeded; how to get the app on the phone (a QR code only on a desktop). */
export default function AppDownloadScreen() {
  const { t } = useTranslation('host');
  const navigate = useNavigate();
  const me = useSession((state) => state.me);
  const status = useSession((state) => state.status);
  const refresh = useSession((state) => state.refresh);
  useEffect(() => {
    // Opened directly (page reload): ask who registered; the greeting is optional.
    if (status === 'unknown') refresh().catch(() => undefined);
  }, [status, refresh]);
  const name = me?.nickname ?? me?.username ?? '';
  const onPhone = isMobileUserAgent(navigator.userAgent);
  return (
    <AccountPage title={t('account.title.appDown')} backTo={false} testId="app-down-screen">
      <div className="account-result">
        <CheckCircleFill className="account-result__icon" aria-hidden />
        <h2>{t('account.appDown.heading')}</h2>
        {name && <p data-testid="app-down-welcome">{t('account.appDown.welcome', { name })}</p>}
      </div>
      <section className="account-download" aria-labelledby="app-download-title" data-testid="app-download">
        <h3 id="app-download-title">{t('account.appDown.download')}</h3>
        {onPhone ? (
          // Already on the phone: install from here (the web app manifest makes it an app), no QR to scan.
          <p data-testid="app-install-here">{t('account.appDown.installHere')}</p>
        ) : (
          <>
            <p>{t('account.appDown.scan')}</p>
            <QRCodeSVG value={window.location.origin} size={148} aria-hidden data-testid="app-download-qr" />
            <p>{t('account.appDown.install')}</p>
          </>
        )}
      </section>
      <Button
        block
        color="primary"
        size="large"
        onClick={() => navigate(AFTER_LOGIN_PATH)}
        data-testid="app-down-start"
      >
        {t('account.action.start')}
      </Button>
    </AccountPage>
  );
}
