import '../security-extras.css';
import List from 'antd-mobile/es/components/list';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

/** Security settings' entries to the e-mail change and the anti-phishing code (issue 31). */
export function SecurityMoreEntries() {
  const { t } = useTranslation('host');
  const navigate = useNavigate();
  return (
    <List className="account-security account-security--more">
      <List.Item
        clickable
        onClick={() => navigate('/changeEmail')}
        extra={t('account.security.change')}
        data-testid="security-change-email"
      >
        {t('account.emailChange.entry')}
      </List.Item>
      <List.Item
        clickable
        onClick={() => navigate('/antiPhishing')}
        description={t('account.antiPhishing.entryHint')}
        data-testid="security-anti-phishing"
      >
        {t('account.antiPhishing.title')}
      </List.Item>
    </List>
  );
}
