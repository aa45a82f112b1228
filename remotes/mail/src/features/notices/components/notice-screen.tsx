import { type Language, useTranslation } from '@cw/shared-state/i18n';
import { useSearchParams } from '@cw/shared-state/router';
import { useKnownSession } from '@cw/shared-state/session';
import { PullList } from '@cw/shared-ui/list';
import { Page } from '@cw/shared-ui/page';
import { toast } from '@cw/shared-ui/toast';
import { Badge, CapsuleTabs } from 'antd-mobile';
import { NAMESPACE } from '../../../i18n.ts';
import * as rows from '../../../lib/rows.module.css';
import type { AnnouncementSummary, SystemNotice } from '../api/notices.ts';
import { useAnnouncements, useReadAllMutation, useSystemNotices, useUnread } from '../api/notices-queries.ts';
import { AnnouncementRow } from './announcement-row.tsx';
import * as styles from './notices.module.css';
import { SystemNoticeRow } from './system-notice-row.tsx';

type Tab = 'announcements' | 'system';

function statusOf(query: { isPending: boolean; isError: boolean }): 'loading' | 'error' | 'ready' {
  if (query.isPending) return 'loading';
  return query.isError ? 'error' : 'ready';
}

function AnnouncementList({ query, signedIn }: { query: ReturnType<typeof useAnnouncements>; signedIn: boolean }) {
  const { t } = useTranslation(NAMESPACE);
  return (
    <PullList
      items={query.data?.pages.flatMap((page) => page.items) ?? []}
      itemKey={(item: AnnouncementSummary) => item.id}
      renderItem={(item: AnnouncementSummary) => <AnnouncementRow item={item} showRead={signedIn} />}
      status={statusOf(query)}
      onRetry={() => void query.refetch()}
      onRefresh={() => query.refetch()}
      loadMore={() => query.fetchNextPage({ throwOnError: true })}
      hasMore={query.hasNextPage}
      emptyText={t('notice.emptyAnnouncements')}
    />
  );
}

function SystemList({ query }: { query: ReturnType<typeof useSystemNotices> }) {
  const { t } = useTranslation(NAMESPACE);
  return (
    <PullList
      items={query.data?.pages.flatMap((page) => page.items) ?? []}
      itemKey={(item: SystemNotice) => item.id}
      renderItem={(item: SystemNotice) => <SystemNoticeRow item={item} />}
      status={statusOf(query)}
      onRetry={() => void query.refetch()}
      onRefresh={() => query.refetch()}
      loadMore={() => query.fetchNextPage({ throwOnError: true })}
      hasMore={query.hasNextPage}
      emptyText={t('notice.emptySystem')}
    />
  );
}

/**
 * /notice: announcements (visitors too) and, signed in, the user's system notices, each a pull-to-refresh
 * list that loads more as it scrolls, with unread dots and "mark all read". `?tab=system` opens the second.
 */
export default function NoticeScreen() {
  const { t, i18n } = useTranslation(NAMESPACE);
  const signedIn = useKnownSession() === 'authenticated';
  const [params, setParams] = useSearchParams();
  const tab: Tab = signedIn && params.get('tab') === 'system' ? 'system' : 'announcements';
  const announcements = useAnnouncements(i18n.language as Language);
  const system = useSystemNotices(signedIn && tab === 'system');
  const unread = useUnread(signedIn);
  const readAll = useReadAllMutation();
  const counts = unread.data;

  const markAll = () =>
    readAll.mutate(tab, {
      onSuccess: () => toast.success(t('notice.allRead')),
      onError: () => toast.fail(t('notice.failed')),
    });
  const right =
    signedIn && (counts?.[tab] ?? 0) > 0 ? (
      <button type="button" className={styles.markAll} onClick={markAll} data-testid="notice-mark-all">
        {t('notice.markAll')}
      </button>
    ) : null;

  const announcementList = <AnnouncementList query={announcements} signedIn={signedIn} />;
  const systemList = <SystemList query={system} />;
  if (!signedIn)
    return (
      <Page title={t('notice.title')}>
        <div className={rows.list} data-testid="notice-screen">
          {announcementList}
        </div>
      </Page>
    );
  const title = (key: Tab) => (
    <Badge content={(counts?.[key] ?? 0) > 0 ? Badge.dot : null}>
      <span data-testid={`notice-tab-${key}`}>{t(`notice.tab.${key}`)}</span>
    </Badge>
  );
  return (
    <Page title={t('notice.title')} right={right}>
      <div data-testid="notice-screen" data-tab={tab}>
        <CapsuleTabs
          activeKey={tab}
          onChange={(key) => setParams(key === 'system' ? { tab: 'system' } : {}, { replace: true })}
        >
          <CapsuleTabs.Tab key="announcements" title={title('announcements')} />
          <CapsuleTabs.Tab key="system" title={title('system')} />
        </CapsuleTabs>
        <div className={rows.list}>{tab === 'system' ? systemList : announcementList}</div>
      </div>
    </Page>
  );
}
