import { useTranslation } from '@cw/shared-state/i18n';
import { useNavigate } from '@cw/shared-state/router';
import { Page } from '@cw/shared-ui/page';
import { NAMESPACE } from '../../../i18n.ts';
import { formatTime } from '../../../lib/format-time.ts';
import { QueryList } from '../../../lib/query-list.tsx';
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
  return (
    <Page title={t('sendMail.historyTitle')}>
      <QueryList
        query={mails}
        itemKey={(mail: UserMail) => mail.id}
        renderItem={(mail: UserMail) => <MailRow mail={mail} />}
        emptyText={t('sendMail.empty')}
        testId="mail-history"
      />
    </Page>
  );
}
