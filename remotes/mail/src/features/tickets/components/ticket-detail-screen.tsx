import { useErrorMessage } from '@cw/shared-state/errors';
import { useTranslation } from '@cw/shared-state/i18n';
import { useSearchParams } from '@cw/shared-state/router';
import { Page } from '@cw/shared-ui/page';
import { EmptyState, ErrorState, LoadingState } from '@cw/shared-ui/states';
import { TextArea } from 'antd-mobile';
import { type FormEvent, useState } from 'react';
import { NAMESPACE } from '../../../i18n.ts';
import * as form from '../../../lib/form.module.css';
import { formatTime } from '../../../lib/format-time.ts';
import { PictureField } from '../../../lib/picture-field.tsx';
import { SubmitRow } from '../../../lib/submit-row.tsx';
import { usePictures } from '../../../lib/use-pictures.ts';
import { DESCRIPTION_MAX, type Ticket } from '../api/tickets.ts';
import { useFollowUpMutation, useTicket } from '../api/tickets-queries.ts';
import { ticketProblem } from '../utils/ticket-rules.ts';
import { TicketStateTag } from './ticket-state-tag.tsx';
import { TicketThread } from './ticket-thread.tsx';
import * as styles from './tickets.module.css';

/** Write again: the ticket waits for a reply again. */
function FollowUp({ ticket }: { ticket: Ticket }) {
  const { t } = useTranslation(NAMESPACE);
  const errorMessage = useErrorMessage();
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const pictures = usePictures('ticket');
  const send = useFollowUpMutation(ticket.id);
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const bad = ticketProblem({ description: text }, pictures);
    if (bad) return setProblem(t(`tickets.problem.${bad === 'description' ? 'text' : bad}`));
    setProblem(null);
    send.mutate(
      { text, uploadIds: pictures.ids },
      {
        onSuccess: () => {
          setText('');
          pictures.reset();
        },
        onError: (error) => setProblem(errorMessage(error)),
      },
    );
  };
  return (
    <form className={form.form} noValidate onSubmit={onSubmit} data-testid="ticket-follow-up">
      <label className={form.label} htmlFor="ticket-follow-up-text">
        {t('tickets.followUp')}
      </label>
      <TextArea
        id="ticket-follow-up-text"
        data-testid="ticket-follow-up-text"
        className={form.input}
        value={text}
        onChange={setText}
        maxLength={DESCRIPTION_MAX}
        rows={3}
      />
      <PictureField id="ticket-follow-up-pictures" pictures={pictures} />
      <SubmitRow
        problem={problem}
        problemTestId="ticket-problem"
        submitTestId="ticket-follow-up-send"
        loading={send.isPending}
        disabled={pictures.busy}
      >
        {t('tickets.send')}
      </SubmitRow>
    </form>
  );
}

/** /supportMail/detail?id=: one ticket, its thread with pictures on both sides, and a follow-up. */
export default function TicketDetailScreen() {
  const { t, i18n } = useTranslation(NAMESPACE);
  const [params] = useSearchParams();
  const id = params.get('id') ?? '';
  const ticket = useTicket(id);
  const title = t('tickets.detailTitle');
  // A link without an id: nothing to ask for (the query is off), so nothing to show or retry.
  if (id === '')
    return (
      <Page title={title}>
        <EmptyState />
      </Page>
    );
  if (ticket.isPending)
    return (
      <Page title={title}>
        <LoadingState />
      </Page>
    );
  if (ticket.isError)
    return (
      <Page title={title}>
        <ErrorState onRetry={() => void ticket.refetch()} />
      </Page>
    );
  const data = ticket.data;
  return (
    <Page title={title}>
      <div className={styles.head} data-testid="ticket-detail">
        <span className={styles.muted}>{formatTime(data.createdAt, i18n.language)}</span>
        <TicketStateTag state={data.state} />
      </div>
      <p className={styles.facts}>
        {t('tickets.email')}: {data.email}
        {data.txRef ? ` · ${t('tickets.txRef')}: ${data.txRef}` : ''}
      </p>
      <TicketThread messages={data.messages} />
      <FollowUp ticket={data} />
    </Page>
  );
}
