import { useErrorMessage } from '@cw/shared-state/errors';
import { useTranslation } from '@cw/shared-state/i18n';
import { useNavigate, useSearchParams } from '@cw/shared-state/router';
import { Page } from '@cw/shared-ui/page';
import { EmptyState, ErrorState, LoadingState } from '@cw/shared-ui/states';
import { toast } from '@cw/shared-ui/toast';
import { Button, List } from 'antd-mobile';
import { NAMESPACE } from '../../../i18n.ts';
import { formatTime } from '../../../lib/format-time.ts';
import type { UserMail } from '../api/user-mail.ts';
import { useMail, useResendMailMutation } from '../api/user-mail-queries.ts';
import { MailStateTag } from './mail-state-tag.tsx';
import * as styles from './send-mail.module.css';

function MailFacts({ mail }: { mail: UserMail }) {
  const { t, i18n } = useTranslation(NAMESPACE);
  const time = (iso: string | null) => formatTime(iso, i18n.language);
  return (
    <List>
      <List.Item extra={<MailStateTag state={mail.state} />}>{t('sendMail.status')}</List.Item>
      <List.Item description={mail.recipients.join(', ')}>{t('sendMail.to')}</List.Item>
      <List.Item extra={time(mail.createdAt)}>{t('sendMail.createdAt')}</List.Item>
      {mail.sentAt ? <List.Item extra={time(mail.sentAt)}>{t('sendMail.sentAt')}</List.Item> : null}
      {mail.failedAt ? (
        <List.Item extra={time(mail.failedAt)} description={mail.failureReason} data-testid="mail-failure">
          {t('sendMail.failedAt')}
        </List.Item>
      ) : null}
    </List>
  );
}

/** /mailDetail?id=: one mail: recipients, subject, body, times, state; a failed one can be sent again. */
export default function MailDetailScreen() {
  const { t } = useTranslation(NAMESPACE);
  const errorMessage = useErrorMessage();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const id = params.get('id') ?? '';
  const mail = useMail(id);
  const resend = useResendMailMutation();
  const data = mail.data;
  let body = null;
  // A link without an id: nothing to ask for (the query is off), so nothing to show or retry.
  if (id === '') body = <EmptyState />;
  else if (mail.isError) body = <ErrorState onRetry={() => void mail.refetch()} />;
  else if (!data) body = <LoadingState />;
  else
    body = (
      <div className={styles.detail} data-testid="mail-detail" data-state={data.state}>
        <h2 className={styles.subject}>{data.subject}</h2>
        <MailFacts mail={data} />
        <pre className={styles.body}>{data.body}</pre>
        {data.state === 'failed' ? (
          <Button
            block
            color="primary"
            loading={resend.isPending}
            data-testid="mail-resend"
            onClick={() =>
              resend.mutate(data.id, {
                onSuccess: (next) => void navigate(`/mailDetail?id=${next.id}`, { replace: true }),
                onError: (error) => toast.fail(errorMessage(error)),
              })
            }
          >
            {t('sendMail.resend')}
          </Button>
        ) : null}
      </div>
    );
  return <Page title={t('sendMail.detailTitle')}>{body}</Page>;
}
