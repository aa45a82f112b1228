import { useTranslation } from '@cw/shared-state/i18n';
import { HubList } from '@cw/shared-ui/hub-list';
import { NAMESPACE } from '../i18n.ts';
import { HUB_ENTRIES } from './hub-entries.ts';

/** Routes whose screens exist in this build; other entries are announced as coming soon. */
const AVAILABLE: ReadonlySet<string> = new Set<string>([]);

export default function HubScreen() {
  const { t } = useTranslation(NAMESPACE);
  return (
    <HubList
      testId="mail-hub"
      title={t('hub.title')}
      comingSoon={t('hub.comingSoon')}
      build={t('hub.build', { build: __BUILD_ID__ })}
      entries={HUB_ENTRIES.map((entry) => ({
        ...entry,
        title: t(`entries.${entry.key}.title`),
        description: t(`entries.${entry.key}.description`),
        available: AVAILABLE.has(entry.path),
      }))}
    />
  );
}
