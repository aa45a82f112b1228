import { useTranslation } from '@cw/shared-state/i18n';
import { NAMESPACE } from '../i18n.ts';

export default function HubScreen() {
  const { t } = useTranslation(NAMESPACE);
  return (
    <main className="screen" data-testid="mail-hub">
      <h1>{t('hub.title')}</h1>
      <p className="build-id" data-testid="build-id">
        {t('hub.build', { build: __BUILD_ID__ })}
      </p>
    </main>
  );
}
