import { LANGUAGE_NAMES, useTranslation } from '@cw/shared-state/i18n';
import { useNavigate } from '@cw/shared-state/router';
import { useSettings } from '@cw/shared-state/settings';
import { List } from 'antd-mobile';
import { NAMESPACE } from '../../../i18n.ts';
import { ScreenLayout } from '../../../lib/screen-layout.tsx';
import { AboutSection } from './about-section.tsx';
import { AccountSection } from './account-section.tsx';
import * as styles from './hub-screen.module.css';
import { QuickBuySection } from './quick-buy-section.tsx';
import { ResetRow } from './reset-row.tsx';

/** /settings: the account (security, log out), language, price mode, quick coin buying, help, reset and about. */
export default function HubScreen() {
  const { t } = useTranslation(NAMESPACE);
  const navigate = useNavigate();
  const language = useSettings((s) => s.language);
  const priceColor = useSettings((s) => s.priceColor);
  const fiatCurrency = useSettings((s) => s.fiatCurrency);
  const source = useSettings((s) => s.source);

  const colors = priceColor === 'red-up' ? t('priceMode.redUp') : t('priceMode.greenUp');
  return (
    <ScreenLayout title={t('hub.title')} testId="settings-hub">
      <AccountSection />
      <List header={t('hub.sectionGeneral')}>
        <List.Item
          data-testid="settings-language"
          onClick={() => navigate('/language')}
          extra={<span lang={language}>{LANGUAGE_NAMES[language]}</span>}
        >
          {t('hub.language')}
        </List.Item>
        <List.Item
          data-testid="settings-price-mode"
          onClick={() => navigate('/priceMode')}
          extra={t('hub.priceModeValue', { colors, currency: fiatCurrency })}
        >
          {t('hub.priceMode')}
        </List.Item>
      </List>
      <QuickBuySection />
      <List header={t('hub.sectionMore')}>
        <List.Item data-testid="settings-help" onClick={() => navigate('/helpCenter')}>
          {t('hub.help')}
        </List.Item>
        <ResetRow />
      </List>
      <AboutSection />
      <p className={styles.source} data-testid="settings-source" data-source={source}>
        {source === 'server' ? t('hub.storedOnServer') : t('hub.storedLocally')}
      </p>
    </ScreenLayout>
  );
}
