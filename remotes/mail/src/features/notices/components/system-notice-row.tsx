import { useCatalogue } from '@cw/shared-state/catalogue';
import { useTranslation } from '@cw/shared-state/i18n';
import { useAmountFormat } from '@cw/shared-state/money';
import { useNavigate } from '@cw/shared-state/router';
import { NAMESPACE } from '../../../i18n.ts';
import { formatTime } from '../../../lib/format-time.ts';
import * as rows from '../../../lib/rows.module.css';
import type { SystemNotice } from '../api/notices.ts';
import { useReadSystemNoticeMutation } from '../api/notices-queries.ts';
import * as styles from './notices.module.css';

/** Where a notice leads: the wallet's record of the money it is about, or the ticket support answered. */
function targetOf(notice: SystemNotice): string | null {
  if (notice.kind === 'deposit_credited' && notice.params.depositId)
    return `/coinTopup/topup?id=${notice.params.depositId}`;
  if (notice.kind.startsWith('withdrawal_') && notice.params.withdrawalId)
    return `/coinTopup/withdrawDeposit?type=withdrawal&id=${notice.params.withdrawalId}`;
  if (notice.kind === 'support_reply' && notice.params.ticketId)
    return `/supportMail/detail?id=${notice.params.ticketId}`;
  return null;
}

/** One system notice, worded in the reader's language from its kind and parameters; reading marks it read. */
export function SystemNoticeRow({ item }: { item: SystemNotice }) {
  const { t, i18n } = useTranslation(NAMESPACE);
  const format = useAmountFormat();
  const { view } = useCatalogue();
  const navigate = useNavigate();
  const read = useReadSystemNoticeMutation();
  const { coin = '', amountMinor = '0' } = item.params;
  const amount = view && coin ? format.display(amountMinor, view.displayOf(coin)) : '';
  // The network by its display name ("BNB Smart Chain (BEP-20)"), not its code.
  const network = view && item.params.network ? view.networkLabel(item.params.network, coin) : item.params.network;
  const text = t(`notice.system.${item.kind}.text`, { ...item.params, amount, coin, network });
  const open = () => {
    if (!item.read) read.mutate(item.id);
    const target = targetOf(item);
    if (target) void navigate(target);
  };
  return (
    <button
      type="button"
      className={rows.row}
      data-testid="system-notice-row"
      data-kind={item.kind}
      data-unread={!item.read}
      onClick={open}
    >
      <span className={`${styles.dot} ${item.read ? styles.dotRead : ''}`} aria-hidden />
      <span className={rows.main}>
        <span className={rows.title}>{t(`notice.system.${item.kind}.title`)}</span>
        <span className={styles.text}>{text}</span>
        <span className={rows.meta}>{formatTime(item.createdAt, i18n.language)}</span>
      </span>
    </button>
  );
}
