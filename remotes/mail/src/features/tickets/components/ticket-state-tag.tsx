import { useTranslation } from '@cw/shared-state/i18n';
import { Tag } from 'antd-mobile';
import { NAMESPACE } from '../../../i18n.ts';
import type { TicketSummary } from '../api/tickets.ts';

/** The specification's two states: pending reply (waiting for us) and reply received. */
export function TicketStateTag({ state }: { state: TicketSummary['state'] }) {
  const { t } = useTranslation(NAMESPACE);
  return (
    <Tag
      color={state === 'pending_reply' ? 'warning' : 'success'}
      fill="outline"
      data-testid="ticket-state"
      data-state={state}
    >
      {t(`tickets.state.${state}`)}
    </Tag>
  );
}
