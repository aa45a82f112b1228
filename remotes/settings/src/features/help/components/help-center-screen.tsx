import { useTranslation } from '@cw/shared-state/i18n';
import { useNavigate } from '@cw/shared-state/router';
import { List } from 'antd-mobile';
import { NAMESPACE } from '../../../i18n.ts';
import { ScreenLayout } from '../../../lib/screen-layout.tsx';
import { HELP_TOPICS, topicKey, topicPath } from '../utils/help-topics.ts';

/** /helpCenter: the FAQ topics. */
export default function HelpCenterScreen() {
  const { t } = useTranslation(NAMESPACE);
  const navigate = useNavigate();
  return (
    <ScreenLayout title={t('help.title')} testId="settings-help-screen" parent="/settings">
      <List header={t('help.intro')}>
        {HELP_TOPICS.map((topic) => (
          <List.Item
            key={topic}
            data-testid={`help-topic-${topic}`}
            description={t(topicKey(topic, 'summary'))}
            onClick={() => navigate(topicPath(topic))}
          >
            {t(topicKey(topic, 'title'))}
          </List.Item>
        ))}
      </List>
    </ScreenLayout>
  );
}
