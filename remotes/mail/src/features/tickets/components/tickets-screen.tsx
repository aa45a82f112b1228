import { useTranslation } from '@cw/shared-state/i18n';
import { Link, useNavigate } from '@cw/shared-state/router';
import { Page } from '@cw/shared-ui/page';
import { NAMESPACE } from '../../../i18n.ts';
import { formatTime } from '../../../lib/format-time.ts';
import { QueryList } from '../../../lib/query-list.tsx';
import * as rows from '../../../lib/rows.module.css';
import type { TicketSummary } from '../api/tickets.ts';
import { useTickets } from '../api/tickets-queries.ts';
import { TicketStateTag } from './ticket-state-tag.tsx';
import * as styles from './tickets.module.css';

function TicketRow({ ticket }: { ticket: TicketSummary }) {
  const { i18n } = useTranslation(NAMESPACE);
  const navigate = useNavigate();
  return (
    <button
      type="button"
      className={rows.row}
      data-testid="ticket-row"
      data-id={ticket.id}
      onClick={() => void navigate(`/supportMail/detail?id=${ticket.id}`)}
    >
      <span className={rows.main}>
        <span className={styles.description}>{ticket.description}</span>
        <span className={styles.muted}>{formatTime(ticket.updatedAt, i18n.language)}</span>
      </span>
      <TicketStateTag state={ticket.state} />
    </button>
  );
}

/** /supportMail: the support mailbox, the user's tickets newest first with their state. */
export default function TicketsScreen() {
  const { t } = useTranslation(NAMESPACE);
  const tickets = useTickets();
  const create = (
    <Link to="/supportMail/new" className={styles.newButton} data-testid="ticket-new">
      {t('tickets.new')}
    </Link>
  );
  return (
    <Page title={t('tickets.title')} right={create}>
      <QueryList
        query={tickets}
        itemKey={(ticket: TicketSummary) => ticket.id}
        renderItem={(ticket: TicketSummary) => <TicketRow ticket={ticket} />}
        emptyText={t('tickets.empty')}
        testId="tickets"
      />
    </Page>
  );
}
