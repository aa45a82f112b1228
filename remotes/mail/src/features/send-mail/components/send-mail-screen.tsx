import { useErrorMessage } from '@cw/shared-state/errors';
import { useTranslation } from '@cw/shared-state/i18n';
import { Link, useNavigate } from '@cw/shared-state/router';
import { useSession } from '@cw/shared-state/session';
import { Page } from '@cw/shared-ui/page';
import { toast } from '@cw/shared-ui/toast';
import { Input, TextArea } from 'antd-mobile';
import { type FormEvent, useState } from 'react';
import { NAMESPACE } from '../../../i18n.ts';
import { Field, fieldProps } from '../../../lib/field.tsx';
import * as form from '../../../lib/form.module.css';
import { SubmitRow } from '../../../lib/submit-row.tsx';
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
      <form className={form.form} noValidate onSubmit={onSubmit} data-testid="send-mail-form">
        <p className={form.hint}>{t('sendMail.replyTo', { email })}</p>
        <Field id="send-mail-to" label={t('sendMail.to')}>
          <Input
            {...fieldProps('send-mail-to', values.recipients, set('recipients'))}
            placeholder={t('sendMail.toPlaceholder', { max: RECIPIENTS_MAX })}
            inputMode="email"
            autoComplete="email"
          />
        </Field>
        <Field id="send-mail-subject" label={t('sendMail.subject')}>
          <Input {...fieldProps('send-mail-subject', values.subject, set('subject'))} maxLength={SUBJECT_MAX} />
        </Field>
        <Field id="send-mail-body" label={t('sendMail.body')}>
          <TextArea
            {...fieldProps('send-mail-body', values.body, set('body'))}
            maxLength={BODY_MAX}
            showCount
            rows={8}
          />
        </Field>
        <SubmitRow
          problem={problem}
          problemTestId="send-mail-problem"
          submitTestId="send-mail-submit"
          loading={send.isPending}
        >
          {t('sendMail.send')}
        </SubmitRow>
      </form>
    </Page>
  );
}
