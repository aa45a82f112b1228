import { useErrorMessage } from '@cw/shared-state/errors';
import { useTranslation } from '@cw/shared-state/i18n';
import { useNavigate } from '@cw/shared-state/router';
import { useSession } from '@cw/shared-state/session';
import { dialog } from '@cw/shared-ui/dialog';
import { Page } from '@cw/shared-ui/page';
import { EmptyState, ErrorState, LoadingState } from '@cw/shared-ui/states';
import { toast } from '@cw/shared-ui/toast';
import { Button, List, Switch, Tag } from 'antd-mobile';
import { NAMESPACE } from '../../../i18n.ts';
import { methodSummary as summary, usePaymentMethods, useSetActive } from '../../../lib/payment-methods.ts';

/**
 * A method added or switched on within the allowlist hold cannot receive a sell while the withdrawal
 * allowlist is on (review 31, F1): say until when, so a refusal is no surprise.
 */
function HoldLine({ usableAt, active }: { usableAt: string; active: boolean }) {
  const { t } = useTranslation(NAMESPACE);
  const until = Date.parse(usableAt);
  if (!active || Number.isNaN(until) || until <= Date.now()) return null;
  return (
    <div data-testid="payment-method-hold">{t('payouts.holdUntil', { at: new Date(until).toLocaleString() })}</div>
  );
}

/** /buySell/paymentMethods: the user's payout methods, masked, each switched on or off; add another. */
export default function PaymentMethodsScreen() {
  const { t } = useTranslation(NAMESPACE);
  const navigate = useNavigate();
  const errorMessage = useErrorMessage();
  const methods = usePaymentMethods();
  const setActive = useSetActive();
  const hasFundPassword = useSession((s) => s.me?.hasFundPassword === true);

  /** Off at once; on only with the fund password (as adding a method), asked in a dialog. */
  async function toggle(id: string, active: boolean) {
    let fundPassword: string | undefined;
    if (active) {
      if (!hasFundPassword) return void toast.fail(t('payouts.noFundPassword'));
      try {
        fundPassword = await dialog.input({
          title: t('payouts.field.fundPassword'),
          text: t('payouts.activateNeedsFundPassword'),
          inputType: 'password',
          validate: (v) => (/^\d{6}$/.test(v) ? null : t('payouts.rule.fundPassword.format')),
        });
      } catch {
        return; // cancelled: the method stays off
      }
    }
    setActive.mutate(
      { id, active, ...(fundPassword ? { fundPassword } : {}) },
      { onError: (err) => toast.fail(errorMessage(err)) },
    );
  }
  let body = null;
  if (methods.isError) body = <ErrorState onRetry={() => void methods.refetch()} />;
  else if (!methods.data) body = <LoadingState />;
  else if (methods.data.items.length === 0) body = <EmptyState />;
  else
    body = (
      <List>
        {methods.data.items.map((m) => (
          <List.Item
            key={m.id}
            data-testid="payment-method"
            description={
              <>
                {summary(m, t)}
                <HoldLine usableAt={m.usableAt} active={m.active} />
              </>
            }
            extra={
              <Switch
                checked={m.active}
                aria-label={t(m.active ? 'payouts.deactivate' : 'payouts.activate')}
                data-testid="payment-method-active"
                onChange={(active) => void toggle(m.id, active)}
              />
            }
          >
            {t(`payouts.kind.${m.kind}`)}{' '}
            {m.active ? null : (
              <Tag fill="outline" color="default">
                {t('payouts.inactive')}
              </Tag>
            )}
          </List.Item>
        ))}
      </List>
    );
  return (
    <Page title={t('payouts.title')}>
      <div data-testid="payment-methods-screen">
        {body}
        <div style={{ margin: 12 }}>
          <Button
            block
            color="primary"
            data-testid="payment-method-add"
            onClick={() => void navigate('/buySell/paymentMethods/add')}
          >
            {t('payouts.add')}
          </Button>
        </div>
      </div>
    </Page>
  );
}
