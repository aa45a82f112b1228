import { useErrorMessage } from '@cw/shared-state/errors';
import { useTranslation } from '@cw/shared-state/i18n';
import { useNavigate } from '@cw/shared-state/router';
import { useSession } from '@cw/shared-state/session';
import { Page } from '@cw/shared-ui/page';
import { toast } from '@cw/shared-ui/toast';
import { Input, TextArea } from 'antd-mobile';
import { type FormEvent, useState } from 'react';
import { NAMESPACE } from '../../../i18n.ts';
import { Field, fieldProps } from '../../../lib/field.tsx';
import * as form from '../../../lib/form.module.css';
import { PictureField } from '../../../lib/picture-field.tsx';
import { SubmitRow } from '../../../lib/submit-row.tsx';
import { usePictures } from '../../../lib/use-pictures.ts';
import { DESCRIPTION_MAX } from '../api/tickets.ts';
import { useOpenTicketMutation } from '../api/tickets-queries.ts';
import { ticketProblem } from '../utils/ticket-rules.ts';

/** /supportMail/new: e-mail (pre-filled), the problem, an optional transaction number, up to 5 pictures. */
export default function NewTicketScreen() {
  const { t } = useTranslation(NAMESPACE);
  const errorMessage = useErrorMessage();
  const navigate = useNavigate();
  const accountEmail = useSession((s) => s.me?.email ?? '');
  const [values, setValues] = useState({ email: accountEmail, description: '', txRef: '' });
  const [problem, setProblem] = useState<string | null>(null);
  const pictures = usePictures('ticket');
  const open = useOpenTicketMutation();
  const set = (key: keyof typeof values) => (value: string) => setValues((v) => ({ ...v, [key]: value }));

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const bad = ticketProblem(values, pictures);
    if (bad) return setProblem(t(`tickets.problem.${bad}`));
    setProblem(null);
    const txRef = values.txRef.trim();
    open.mutate(
      {
        email: values.email.trim(),
        description: values.description,
        uploadIds: pictures.ids,
        ...(txRef ? { txRef } : {}),
      },
      {
        onSuccess: (ticket) => {
          toast.success(t('tickets.submitted'));
          pictures.reset();
          void navigate(`/supportMail/detail?id=${ticket.id}`, { replace: true });
        },
        onError: (error) => setProblem(errorMessage(error)),
      },
    );
  };

  return (
    <Page title={t('tickets.newTitle')}>
      <form className={form.form} noValidate onSubmit={onSubmit} data-testid="ticket-form">
        <Field id="ticket-email" label={t('tickets.email')}>
          <Input {...fieldProps('ticket-email', values.email, set('email'))} inputMode="email" autoComplete="email" />
        </Field>
        <Field id="ticket-description" label={t('tickets.description')}>
          <TextArea
            {...fieldProps('ticket-description', values.description, set('description'))}
            placeholder={t('tickets.descriptionPlaceholder')}
            maxLength={DESCRIPTION_MAX}
            showCount
            rows={6}
          />
        </Field>
        <Field id="ticket-tx" label={t('tickets.txRef')}>
          <Input
            {...fieldProps('ticket-tx', values.txRef, set('txRef'))}
            placeholder={t('tickets.txRefPlaceholder')}
            maxLength={100}
          />
        </Field>
        <PictureField id="ticket-pictures" pictures={pictures} />
        <SubmitRow
          problem={problem}
          problemTestId="ticket-problem"
          submitTestId="ticket-submit"
          loading={open.isPending}
          disabled={pictures.busy}
        >
          {t('tickets.submit')}
        </SubmitRow>
      </form>
    </Page>
  );
}
