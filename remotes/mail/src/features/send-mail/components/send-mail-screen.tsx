import { useErrorMessage } from '@cw/shared-state/errors';
import { useTranslation } from '@cw/shared-state/i18n';
import { Link, useNavigate } from '@cw/shared-state/router';
import { useSession } from '@cw/shared-state/session';
import { Page } from '@cw/shared-ui/page';
import { toast } from '@cw/shared-ui/toast';
import { Button, Input, TextArea } from 'antd-mobile';
import { type FormEvent, useState } from 'react';
import { NAMESPACE } from '../../../i18n.ts';
import { useSendMailMutation } from '../api/user-mail-queries.ts';
import { BODY_MAX, parseRecipients, RECIPIENTS_MAX, recipientsProblem, SUBJECT_MAX } from '../utils/recipients.ts';
import * as styles from './send-mail.module.css';

/** /sendemails: write an e-mail (up to 5 recipients); it goes from the service, replies come to the user. */
export default function SendMailScreen() {
  const { t } = useTranslation(NAMESPACE);
  const errorMessage = useErrorMessage();
  const navigate = useNavigate();
  const email = useSession((s) => s.me?.email ?? '');
  const [values, setValues] = useState({ recipients: '', subject: '', body: '' });
  const [problem, setProblem] = useState<string | null>(null);
  const send = useSendMailMutation();
  const set = (key: keyof typeof values) => (value: string) => setValues((v) => ({ ...v, [key]: value }));

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const recipients = parseRecipients(values.recipients);
    const bad = recipientsProblem(recipients);
    if (bad) return setProblem(t(`sendMail.recipients.${bad.kind}`, { max: RECIPIENTS_MAX, ...bad }));
    if (values.subject.trim() === '') return setProblem(t('sendMail.subjectRequired'));
    if (values.body.trim() === '') return setProblem(t('sendMail.bodyRequired'));
    setProblem(null);
    send.mutate(
      { recipients, subject: values.subject.trim(), body: values.body },
      {
        onSuccess: (mail) => {
          toast.success(t('sendMail.queued'));
          void navigate(`/mailDetail?id=${mail.id}`, { replace: true });
        },
        onError: (error) => setProblem(errorMessage(error)),
      },
    );
  };

  const records = (
    <Link to="/sendHistory" className={styles.records} data-testid="send-mail-records">
      {t('sendMail.records')}
    </Link>
  );
  return (
    <Page title={t('sendMail.title')} right={records}>
      <form className={styles.form} noValidate onSubmit={onSubmit} data-testid="send-mail-form">
        <p className={styles.hint}>{t('sendMail.replyTo', { email })}</p>
        <div className={styles.field}>
          <label className={styles.label} htmlFor="send-mail-to">
            {t('sendMail.to')}
          </label>
          <Input
            className={styles.input}
            value={values.recipients}
            onChange={set('recipients')}
            placeholder={t('sendMail.toPlaceholder', { max: RECIPIENTS_MAX })}
            inputMode="email"
            autoComplete="email"
            id="send-mail-to"
            data-testid="send-mail-to"
          />
        </div>
        <div className={styles.field}>
          <label className={styles.label} htmlFor="send-mail-subject">
            {t('sendMail.subject')}
          </label>
          <Input
            className={styles.input}
            value={values.subject}
            onChange={set('subject')}
            maxLength={SUBJECT_MAX}
            id="send-mail-subject"
            data-testid="send-mail-subject"
          />
        </div>
        <div className={styles.field}>
          <label className={styles.label} htmlFor="send-mail-body">
            {t('sendMail.body')}
          </label>
          <TextArea
            className={styles.input}
            value={values.body}
            onChange={set('body')}
            maxLength={BODY_MAX}
            showCount
            rows={8}
            id="send-mail-body"
            data-testid="send-mail-body"
          />
        </div>
        {problem ? (
          <p className={styles.problem} role="alert" data-testid="send-mail-problem">
            {problem}
          </p>
        ) : null}
        <Button block color="primary" type="submit" loading={send.isPending} data-testid="send-mail-submit">
          {t('sendMail.send')}
        </Button>
      </form>
    </Page>
  );
}
