import { useTranslation } from '@cw/shared-state/i18n';
import { useNavigate } from '@cw/shared-state/router';
import { List, Tag } from 'antd-mobile';
import { NAMESPACE } from '../i18n.ts';
import { HUB_ENTRIES } from './hub-entries.ts';

/** Routes whose screens exist in this build; other entries are announced as coming soon. */
const AVAILABLE: ReadonlySet<string> = new Set<string>([]);

export default function HubScreen() {
  const { t } = useTranslation(NAMESPACE);
  const navigate = useNavigate();
  return (
    <main className="screen" data-testid="rewards-hub">
      <h1>{t('hub.title')}</h1>
      <List>
        {HUB_ENTRIES.map((entry) => {
          const available = AVAILABLE.has(entry.path);
          return (
            <List.Item
              key={entry.key}
              data-testid={`hub-entry-${entry.key}`}
              description={t(`entries.${entry.key}.description`)}
              disabled={!available}
              extra={available ? undefined : <Tag color="default">{t('hub.comingSoon')}</Tag>}
              onClick={available ? () => navigate(entry.path) : undefined}
            >
              {t(`entries.${entry.key}.title`)}
            </List.Item>
          );
        })}
      </List>
      <p className="build-id" data-testid="build-id">
        {t('hub.build', { build: __BUILD_ID__ })}
      </p>
    </main>
  );
}
