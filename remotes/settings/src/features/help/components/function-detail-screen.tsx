import { useTranslation } from '@cw/shared-state/i18n';
import { useNavigate, useSearchParams } from '@cw/shared-state/router';
import { EmptyState } from '@cw/shared-ui/states';
import { Button } from 'antd-mobile';
import { NAMESPACE } from '../../../i18n.ts';
import { ScreenLayout } from '../../../lib/screen-layout.tsx';
import { isHelpTopic, TOPIC_PARAGRAPHS, topicKey } from '../utils/help-topics.ts';
import * as styles from './help.module.css';

/** /funcDescDetail?topic=<id>: a feature's description. */
export default function FunctionDetailScreen() {
  const { t } = useTranslation(NAMESPACE);
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const topic = params.get('topic');

  if (!isHelpTopic(topic)) {
    return (
      <ScreenLayout title={t('help.title')} testId="func-desc-detail" parent="/helpCenter">
        <div data-testid="func-desc-not-found">
          <EmptyState text={t('help.notFound')}>
            <Button color="primary" size="small" onClick={() => void navigate('/helpCenter', { replace: true })}>
              {t('help.backToHelp')}
            </Button>
          </EmptyState>
        </div>
      </ScreenLayout>
    );
  }

  return (
    <ScreenLayout title={t(topicKey(topic, 'title'))} testId="func-desc-detail" parent="/helpCenter">
      <article className={styles.article} data-topic={topic}>
        <p className={styles.summary}>{t(topicKey(topic, 'summary'))}</p>
        {TOPIC_PARAGRAPHS.map((part) => (
          <p key={part}>{t(topicKey(topic, part))}</p>
        ))}
      </article>
    </ScreenLayout>
  );
}
