import { useTranslation } from '@cw/shared-state/i18n';
import { useNavigate } from '@cw/shared-state/router';
import { Tag } from 'antd-mobile';
import { NAMESPACE } from '../../../i18n.ts';
import { formatTime } from '../../../lib/format-time.ts';
import * as rows from '../../../lib/rows.module.css';
import type { AnnouncementSummary } from '../api/notices.ts';
import * as styles from './notices.module.css';

/** One announcement in the list: unread dot, title, category (and pinned), date; opens the detail. */
export function AnnouncementRow({ item, showRead }: { item: AnnouncementSummary; showRead: boolean }) {
  const { t, i18n } = useTranslation(NAMESPACE);
  const navigate = useNavigate();
  const unread = showRead && !item.read;
  return (
    <button
      type="button"
      className={rows.row}
      data-testid="announcement-row"
      data-id={item.id}
      data-unread={unread}
      onClick={() => void navigate(`/noticeDetail?id=${item.id}`)}
    >
      <span className={`${styles.dot} ${unread ? '' : styles.dotRead}`} aria-hidden />
      <span className={rows.main}>
        <span className={rows.title} lang={item.language}>
          {item.title}
        </span>
        <span className={rows.meta}>
          {item.pinned ? (
            <Tag color="danger" fill="outline">
              {t('notice.pinned')}
            </Tag>
          ) : null}
          <Tag fill="outline">{t(`notice.category.${item.category}`)}</Tag>
          <span>{formatTime(item.publishedAt, i18n.language)}</span>
          {unread ? <span className={styles.srOnly}>{t('notice.unread')}</span> : null}
        </span>
      </span>
    </button>
  );
}
