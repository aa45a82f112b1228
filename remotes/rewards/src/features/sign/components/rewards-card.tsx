import { useCatalogue } from '@cw/shared-state/catalogue';
import { useErrorMessage } from '@cw/shared-state/errors';
import { useTranslation } from '@cw/shared-state/i18n';
import { useAmountFormat } from '@cw/shared-state/money';
import { toast } from '@cw/shared-ui/toast';
import { Button } from 'antd-mobile';
import { NAMESPACE } from '../../../i18n.ts';
import * as ui from '../../../lib/rewards.module.css';
import { claimRecordFor, type SignStatus, useClaimMutation, useDeliverMutation } from '../api/sign.ts';

/**
 * What the check-ins earned: claimable now (claimAfterHours after each sign), still waiting, and claimed but
 * not delivered; claim naming a check-in of the connected wallet, then deliver to the balance with a
 * 7-day streak.
 */
export function RewardsCard({ status, address }: { status: SignStatus; address: string | null }) {
  const { t } = useTranslation(NAMESPACE);
  const errorMessage = useErrorMessage();
  const format = useAmountFormat();
  const { view } = useCatalogue();
  const claim = useClaimMutation();
  const deliver = useDeliverMutation();
  const amount = (minor: string) =>
    view ? `${format.display(minor, view.displayOf(status.asset))} ${status.asset}` : '…';

  const onClaim = () => {
    if (!address) {
      toast.fail(t('sign.connectFirst'));
      return;
    }
    const record = claimRecordFor(status.records, address);
    if (!record) {
      toast.fail(t('sign.checkInFirst'));
      return;
    }
    claim.mutate(record.id, {
      onSuccess: (c) => toast.success(t('sign.claimed', { amount: amount(c.amountMinor) })),
      onError: (err) => toast.fail(errorMessage(err)),
    });
  };
  const onDeliver = () =>
    deliver.mutate(undefined, {
      onSuccess: (d) => toast.success(t('sign.delivered', { amount: amount(d.deliveredMinor) })),
      onError: (err) => toast.fail(errorMessage(err)),
    });
  return (
    <section className={ui.card} data-testid="rewards-card">
      <div className={ui.row}>
        <span className={ui.label}>{t('sign.claimable')}</span>
        <span className={ui.strong} data-testid="claimable">
          {amount(status.claimableMinor)}
        </span>
      </div>
      <div className={ui.row}>
        <span className={ui.label}>{t('sign.waiting', { hours: status.claimAfterHours })}</span>
        <span data-testid="waiting">{amount(status.waitingMinor)}</span>
      </div>
      <div className={ui.row}>
        <span className={ui.label}>{t('sign.claimedPending')}</span>
        <span data-testid="claimed-pending">{amount(status.claimedMinor)}</span>
      </div>
      <p className={ui.muted}>
        {t('sign.rules', {
          hours: status.claimAfterHours,
          minimum: amount(status.claimMinMinor),
          days: status.deliveryStreakDays,
        })}
      </p>
      <div className={ui.actions}>
        <Button color="primary" fill="outline" loading={claim.isPending} data-testid="claim" onClick={onClaim}>
          {t('sign.claim')}
        </Button>
        <Button color="primary" loading={deliver.isPending} data-testid="deliver" onClick={onDeliver}>
          {t('sign.deliver', {
            streak: Math.min(status.streak, status.deliveryStreakDays),
            days: status.deliveryStreakDays,
          })}
        </Button>
      </div>
    </section>
  );
}
