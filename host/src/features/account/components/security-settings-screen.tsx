import '../account.css';
import { useErrorMessage } from '@cw/shared-state/errors';
import { useSession } from '@cw/shared-state/session';
import Button from 'antd-mobile/es/components/button';
import List from 'antd-mobile/es/components/list';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useLogoutMutation } from '../api/account-queries.ts';
import { notifyFail, notifySuccess } from '../utils/notify.ts';
import { AccountPage } from './account-page.tsx';
import { AllowlistSection } from './allowlist-section.tsx';
import { FreezeSection } from './freeze-section.tsx';
import { FundPasswordForm } from './fund-password-form.tsx';
import { PasskeysSection } from './passkeys-section.tsx';
import { SecondFactorSection } from './second-factor-section.tsx';
import { SecurityMoreEntries } from './security-more-entries.tsx';
import { SecurityOverview } from './security-overview.tsx';
import { SessionsList } from './sessions-list.tsx';

/** /securitySettings (login needed): e-mail, login password, fund password, devices, log out. */
export default function SecuritySettingsScreen() {
  const { t } = useTranslation('host');
  const navigate = useNavigate();
  const message = useErrorMessage();
  const me = useSession((state) => state.me);
  const refresh = useSession((state) => state.refresh);
  const [fundOpen, setFundOpen] = useState(false);
  const logout = useLogoutMutation(
    () => {
      notifySuccess(t('account.security.loggedOut'));
      navigate('/login', { replace: true });
    },
    (error) => notifyFail(message(error)),
  );

  if (!me) return null;
  return (
    <AccountPage title={t('account.title.securitySettings')} testId="security-screen" variant="list">
      <SecurityOverview />
      <List className="account-security">
        <List.Item extra={<span data-testid="security-email">{me.emailMasked}</span>}>
          {t('account.security.email')}
        </List.Item>
        <List.Item
          clickable
          onClick={() => navigate('/editLoginPwd')}
          extra={t('account.security.change')}
          data-testid="security-login-password"
        >
          {t('account.security.loginPassword')}
        </List.Item>
        <List.Item
          clickable
          onClick={() => setFundOpen((open) => !open)}
          description={me.hasFundPassword ? t('account.security.fundIsSet') : t('account.security.fundNotSet')}
          extra={me.hasFundPassword ? t('account.security.change') : t('account.security.fundSet')}
          data-testid="security-fund-password"
        >
          {t('account.security.fundPassword')}
        </List.Item>
      </List>
      <SecurityMoreEntries />
      {fundOpen && (
        <div className="account-section">
          <FundPasswordForm
            emailMasked={me.emailMasked}
            onDone={() => {
              setFundOpen(false);
              void refresh();
            }}
          />
        </div>
      )}
      <PasskeysSection />
      <SecondFactorSection />
      <AllowlistSection />
      <FreezeSection />
      <h2 className="account-section-title account-section">{t('account.security.sessions')}</h2>
      <SessionsList />
      <div className="account-section">
        <Button
          block
          size="large"
          className="account-submit"
          loading={logout.isPending}
          onClick={() => logout.mutate()}
          data-testid="security-logout"
        >
          {t('account.action.logout')}
        </Button>
      </div>
    </AccountPage>
  );
}
