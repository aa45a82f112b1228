import { useCatalogue } from '@cw/shared-state/catalogue';
import { useTranslation } from '@cw/shared-state/i18n';
import { useAmountFormat } from '@cw/shared-state/money';
import { copyText } from '@cw/shared-ui/clipboard';
import { Page } from '@cw/shared-ui/page';
import { QrCode } from '@cw/shared-ui/qr-code';
import { EmptyState, ErrorState, LoadingState } from '@cw/shared-ui/states';
import { Button, List, Tag } from 'antd-mobile';
import { NAMESPACE } from '../../../i18n.ts';
import { formatTime } from '../../../lib/format.ts';
import * as ui from '../../../lib/rewards.module.css';
import { type InviteStatus, inviteLink, useInvite } from '../api/invite.ts';

/** paid: released to the balance; deposited: the reward is held; forfeited: the invitee moved the deposit on. */
const STATUS_COLORS: Record<
  InviteStatus['invitations'][number]['status'],
  'default' | 'warning' | 'success' | 'danger'
> = {
  registered: 'default',
  deposited: 'warning',
  paid: 'success',
  forfeited: 'danger',
};

function Poster({ data }: { data: InviteStatus }) {
  const { t } = useTranslation(NAMESPACE);
  const format = useAmountFormat();
  const { view } = useCatalogue();
  const link = inviteLink(window.location.origin, data.code);
  const reward = view ? `${format.display(data.rewardMinor, view.displayOf(data.asset))} ${data.asset}` : '…';
  const minimum = view ? `${format.display(data.qualifyingMinor, view.displayOf(data.asset))} ${data.asset}` : '…';
  const canShare = typeof navigator.share === 'function';
  return (
    <section className={ui.card} data-testid="invite-poster" style={{ alignItems: 'center' }}>
      <QrCode value={link} size={180} />
      <span className={ui.label}>{t('invite.code')}</span>
      <span className={`${ui.strong} ${ui.mono}`} data-testid="invite-code">
        {data.code}
      </span>
      <span className={`${ui.muted} ${ui.mono}`} data-testid="invite-link">
        {link}
      </span>
      <p className={ui.muted} data-testid="invite-rule">
        {t('invite.howItWorks', { reward, minimum, hours: data.holdHours })}
      </p>
      <div className={ui.actions} style={{ width: '100%' }}>
        <Button fill="outline" color="primary" data-testid="copy-code" onClick={() => void copyText(data.code)}>
          {t('invite.copyCode')}
        </Button>
        <Button fill="outline" color="primary" data-testid="copy-link" onClick={() => void copyText(link)}>
          {t('invite.copyLink')}
        </Button>
      </div>
      {canShare ? (
        <Button
          block
          color="primary"
          data-testid="share"
          onClick={() =>
            void navigator
              .share({ title: t('invite.shareTitle'), text: t('invite.shareText'), url: link })
              .catch(() => {})
          }
        >
          {t('invite.share')}
        </Button>
      ) : null}
    </section>
  );
}

/** /invite: the user's code, link and QR poster, and who registered with it. */
export default function InviteScreen() {
  const { t, i18n } = useTranslation(NAMESPACE);
  const format = useAmountFormat();
  const { view } = useCatalogue();
  const invite = useInvite();
  let body = null;
  if (invite.isError) body = <ErrorState onRetry={() => void invite.refetch()} />;
  else if (!invite.data) body = <LoadingState />;
  else
    body = (
      <>
        <Poster data={invite.data} />
        <List header={t('invite.records')} data-testid="invite-records">
          {invite.data.invitations.length === 0 ? <EmptyState /> : null}
          {invite.data.invitations.map((i) => (
            <List.Item
              key={`${i.invitee}-${i.registeredAt}`}
              data-testid="invite-record"
              description={formatTime(i.registeredAt, i18n.language)}
              extra={
                <Tag color={STATUS_COLORS[i.status]} fill="outline">
                  {t(`invite.status.${i.status}`)}
                  {i.rewardMinor && i.rewardAsset && view
                    ? ` · +${format.display(i.rewardMinor, view.displayOf(i.rewardAsset))} ${i.rewardAsset}`
                    : ''}
                </Tag>
              }
            >
              {i.invitee}
            </List.Item>
          ))}
        </List>
      </>
    );
  return (
    <Page title={t('invite.title')}>
      <div data-testid="invite-screen">{body}</div>
    </Page>
  );
}
