import { useTranslation } from '@cw/shared-state/i18n';
import { useNavigate } from '@cw/shared-state/router';
import { PullList } from '@cw/shared-ui/list';
import { Page } from '@cw/shared-ui/page';
import { NAMESPACE } from '../../../i18n.ts';
import { formatTime } from '../../../lib/format-time.ts';
import * as rows from '../../../lib/rows.module.css';
import type { UserMail } from '../api/user-mail.ts';
import { useMails } from '../api/user-mail-queries.ts';
import { MailStateTag } from './mail-state-tag.tsx';
import * as styles from './send-mail.module.css';

function MailRow({ mail }: { mail: UserMail }) {
  const { i18n } = useTranslation(NAMESPACE);
  const navigate = useNavigate();
  return (
    <button
      type="button"
      className={rows.row}
      data-testid="mail-row"
      data-id={mail.id}
      onClick={() => void navigate(`/mailDetail?id=${mail.id}`)}
    >
      <span className={rows.main}>
        <span className={styles.subject}>{mail.subject}</span>
        <span className={styles.muted}>{mail.recipients.join(', ')}</span>
        <span className={styles.muted}>{formatTime(mail.createdAt, i18n.language)}</span>
      </span>
      <MailStateTag state={mail.state} />
    </button>
  );
}

/** /sendHistory: every mail the user sent, newest first, with its state. */
export default function MailHistoryScreen() {
  const { t } = useTranslation(NAMESPACE);
  const mails = useMails();
  let status: 'loading' | 'error' | 'ready' = 'ready';
  if (mails.isPending) status = 'loading';
  else if (mails.isError) status = 'error';
  return (
    <Page title={t('sendMail.historyTitle')}>
      <div className={rows.list} data-testid="mail-history">
        <PullList
          items={mails.data?.pages.flatMap((page) => page.items) ?? []}
          itemKey={(mail: UserMail) => mail.id}
          renderItem={(mail: UserMail) => <MailRow mail={mail} />}
          status={status}
          onRetry={() => void mails.refetch()}
          onRefresh={() => mails.refetch()}
          loadMore={() => mails.fetchNextPage({ throwOnError: true })}
          hasMore={mails.hasNextPage}
          emptyText={t('sendMail.empty')}
        />
      </div>
    </Page>
  );
}
