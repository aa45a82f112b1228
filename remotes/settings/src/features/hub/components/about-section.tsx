import { useTranslation } from '@cw/shared-state/i18n';
import { copyText } from '@cw/shared-ui/clipboard';
import { Button, List } from 'antd-mobile';
import { NAMESPACE } from '../../../i18n.ts';

/** "About": the build id, with a button copying it (the shared helper shows "copied successfully"). */
export function AboutSection() {
  const { t } = useTranslation(NAMESPACE);
  return (
    <List header={t('hub.about')}>
      <List.Item
        data-testid="settings-about"
        extra={
          <Button
            size="mini"
            color="primary"
            fill="outline"
            data-testid="copy-build"
            onClick={() => void copyText(__BUILD_ID__)}
          >
            {t('hub.copyBuild')}
          </Button>
        }
      >
        <span data-testid="build-id">{t('hub.build', { build: __BUILD_ID__ })}</span>
      </List.Item>
    </List>
  );
}
