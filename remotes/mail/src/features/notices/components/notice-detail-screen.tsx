import { type Language, useTranslation } from '@cw/shared-state/i18n';
import { useSearchParams } from '@cw/shared-state/router';
import { Page } from '@cw/shared-ui/page';
import { EmptyState, ErrorState, LoadingState } from '@cw/shared-ui/states';
import { Tag } from 'antd-mobile';
import { NAMESPACE } from '../../../i18n.ts';
import { formatTime } from '../../../lib/format-time.ts';
import * as rows from '../../../lib/rows.module.css';
import { useAnnouncement } from '../api/notices-queries.ts';
import * as styles from './notices.module.css';

/**
 * /noticeDetail?id=: one announcement. Its body is HTML the server made from Markdown and sanitised
 * with an allowlist when it was published (no scripts, handlers, styles or images).
 */
export default function NoticeDetailScreen() {
  const { t, i18n } = useTranslation(NAMESPACE);
  const [params] = useSearchParams();
  const id = params.get('id') ?? '';
  const detail = useAnnouncement(id, i18n.language as Language);
  const data = detail.data;
  let body = null;
  // A link without an id: nothing to ask for (the query is off), so nothing to show or retry.
  if (id === '') body = <EmptyState />;
  else if (detail.isError) body = <ErrorState onRetry={() => void detail.refetch()} />;
  else if (!data) body = <LoadingState />;
  else
    body = (
      <article className={styles.detail} data-testid="notice-detail" lang={data.language}>
        <h2 className={styles.detailTitle} data-testid="notice-detail-title">
          {data.title}
        </h2>
        <div className={rows.meta}>
          <Tag fill="outline">{t(`notice.category.${data.category}`)}</Tag>
          <span>{formatTime(data.publishedAt, i18n.language)}</span>
        </div>
        {/* Sanitised on the server with an allowlist (modules/notices/markdown.ts). */}
        <div
          className={styles.body}
          data-testid="notice-detail-body"
          dangerouslySetInnerHTML={{ __html: data.bodyHtml }}
        />
      </article>
    );
  return <Page title={t('notice.detailTitle')}>{body}</Page>;
}
