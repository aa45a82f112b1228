import { useErrorMessage } from '@cw/shared-state/errors';
import { useTranslation } from '@cw/shared-state/i18n';
import { useNavigate } from '@cw/shared-state/router';
import { useSession } from '@cw/shared-state/session';
import { dialog, isDialogCancelled } from '@cw/shared-ui/dialog';
import { toast } from '@cw/shared-ui/toast';
import { List } from 'antd-mobile';
import { useEffect } from 'react';
import { NAMESPACE } from '../../../i18n.ts';
import * as styles from './account-section.module.css';

/**
 * The top of Settings: who is logged in (initial, name, masked e-mail), the way to the security
 * settings, and log out (asked first, then back to /login). A visitor gets the way to log in.
 */
export function AccountSection() {
  const { t } = useTranslation(NAMESPACE);
  const navigate = useNavigate();
  const errorMessage = useErrorMessage();
  const status = useSession((s) => s.status);
  const me = useSession((s) => s.me);
  const check = useSession((s) => s.check);
  const logout = useSession((s) => s.logout);

  useEffect(() => {
    if (status === 'unknown') check().catch(() => undefined);
  }, [status, check]);

  async function confirmLogout() {
    try {
      await dialog.confirm({ title: t('account.logoutTitle'), text: t('account.logoutConfirm') });
    } catch (error) {
      if (isDialogCancelled(error)) return;
      throw error;
    }
    try {
      await logout();
      toast.success(t('account.loggedOut'));
      void navigate('/login', { replace: true });
    } catch (error) {
      toast.fail(errorMessage(error));
    }
  }

  if (status !== 'authenticated' || !me) {
    return (
      <List header={t('account.title')}>
        <List.Item
          data-testid="settings-account-login"
          description={t('account.visitorHint')}
          onClick={() => void navigate('/login')}
        >
          {t('account.visitor')}
        </List.Item>
      </List>
    );
  }
  const name = me.nickname ?? me.username;
  return (
    <List header={t('account.title')}>
      <List.Item
        data-testid="settings-account"
        prefix={
          <span className={styles.avatar} aria-hidden="true">
            {Array.from(name)[0]?.toUpperCase()}
          </span>
        }
        description={<span data-testid="settings-account-email">{me.emailMasked}</span>}
      >
        <span className={styles.name} data-testid="settings-account-name">
          {name}
        </span>
      </List.Item>
      <List.Item data-testid="settings-security" onClick={() => void navigate('/securitySettings')}>
        {t('account.security')}
      </List.Item>
      <List.Item data-testid="settings-logout" arrowIcon={false} onClick={() => void confirmLogout()}>
        <span className={styles.logout}>{t('account.logout')}</span>
      </List.Item>
    </List>
  );
}
