import '../account.css';
import { useErrorMessage } from '@cw/shared-state/errors';
import Button from 'antd-mobile/es/components/button';
import InfiniteScroll from 'antd-mobile/es/components/infinite-scroll';
import List from 'antd-mobile/es/components/list';
import Tag from 'antd-mobile/es/components/tag';
import { useTranslation } from 'react-i18next';
import { useLoginHistory } from '../api/overview-queries.ts';
import type { LoginPage } from '../api/security-api.ts';
import { deviceText, placeText } from '../utils/login-labels.ts';
import { AccountPage } from './account-page.tsx';

type LoginEntry = LoginPage['logins'][number];

const RESULT_COLOR: Record<LoginEntry['result'], 'success' | 'danger' | 'warning' | 'default'> = {
  succeeded: 'success',
  failed: 'danger',
  factor_failed: 'danger',
  throttled: 'warning',
  factor_pending: 'default',
  // A browser never seen before: waiting for the e-mailed confirmation, then confirmed (issue 31).
  device_pending: 'default',
  device_confirmed: 'success',
};

function LoginRow({ entry }: { entry: LoginEntry }) {
  const { t, i18n } = useTranslation('host');
  const time = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }).format(
    new Date(entry.at),
  );
  const where = [placeText(entry.place, i18n.language), entry.ip].filter(Boolean).join(' · ');
  return (
    <List.Item
      data-testid="login-entry"
      description={
        <>
          <span>{[time, t(`account.logins.method.${entry.method}`)].join(' · ')}</span>
          <br />
          <span data-testid="login-where">{where || t('account.logins.noPlace')}</span>
        </>
      }
      extra={
        <Tag color={RESULT_COLOR[entry.result]} fill="outline" data-testid="login-result">
          {t(`account.logins.result.${entry.result}`)}
        </Tag>
      }
    >
      <span data-testid="login-device">{deviceText(entry.device) ?? t('account.logins.noBrowser')}</span>
    </List.Item>
  );
}

/** /securityLogins (login needed): every sign-in attempt of the last 90 days, newest first, paged. */
export default function LoginHistoryScreen() {
  const { t } = useTranslation('host');
  const message = useErrorMessage();
  const history = useLoginHistory();
  const entries = history.data?.pages.flatMap((page) => page.logins) ?? [];
  return (
    <AccountPage
      title={t('account.logins.title')}
      testId="login-history-screen"
      variant="list"
      backTo="/securitySettings"
    >
      <p className="account-hint account-section account-hint--after-list">{t('account.logins.lead')}</p>
      {history.isError && (
        <button
          type="button"
          className="remote-failed"
          onClick={() => void history.refetch()}
          data-testid="logins-retry"
        >
          {message(history.error)} · {t('account.security.loadFailed')}
        </button>
      )}
      {history.isSuccess && entries.length === 0 && (
        <p className="account-hint account-section" data-testid="logins-empty">
          {t('account.logins.empty')}
        </p>
      )}
      <List className="account-security" data-testid="logins-list" aria-busy={history.isPending}>
        {entries.map((entry) => (
          <LoginRow key={entry.id} entry={entry} />
        ))}
      </List>
      {/* Older pages load as the end scrolls into view (and on a tap, where scrolling is not possible). */}
      {history.isSuccess && entries.length > 0 && (
        <InfiniteScroll
          hasMore={history.hasNextPage}
          loadMore={async () => {
            await history.fetchNextPage();
          }}
        >
          {(hasMore, failed, retry) =>
            hasMore ? (
              <Button
                size="small"
                fill="none"
                loading={history.isFetchingNextPage}
                onClick={failed ? retry : () => void history.fetchNextPage()}
                data-testid="logins-more"
              >
                {t('account.logins.more')}
              </Button>
            ) : (
              <span data-testid="logins-end">{t('account.logins.end')}</span>
            )
          }
        </InfiniteScroll>
      )}
    </AccountPage>
  );
}
