import { useTranslation } from '@cw/shared-state/i18n';
import { Tag } from 'antd-mobile';
import { NAMESPACE } from '../../../i18n.ts';
import type { UserMail } from '../api/user-mail.ts';

const COLOR = { queued: 'warning', sent: 'success', failed: 'danger' } as const;

/** queued, sent or failed, in the reader's language. */
export function MailStateTag({ state }: { state: UserMail['state'] }) {
  const { t } = useTranslation(NAMESPACE);
  return (
    <Tag color={COLOR[state]} fill="outline" data-testid="mail-state" data-state={state}>
      {t(`sendMail.state.${state}`)}
    </Tag>
  );
}
