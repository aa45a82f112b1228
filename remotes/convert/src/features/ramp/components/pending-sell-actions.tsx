import { useErrorMessage } from '@cw/shared-state/errors';
import { useTranslation } from '@cw/shared-state/i18n';
import { dialog } from '@cw/shared-ui/dialog';
import { toast } from '@cw/shared-ui/toast';
import { useQueryClient } from '@tanstack/react-query';
import { Button } from 'antd-mobile';
import { useState } from 'react';
import { NAMESPACE } from '../../../i18n.ts';
import * as ui from '../../../lib/trade.module.css';
import { cancelSell, type RampOrder, rampKeys } from '../api/ramp-api.ts';
import { goToCheckout } from '../hooks/use-submit.ts';
import { checkoutLinks } from '../utils/checkout-link.ts';

/**
 * A sell still waiting for its checkout. The server answers its checkout link only once, to the
 * window that placed it (issue 38): that window (this tab's kept link) may continue to the provider;
 * any other sees why not, and may cancel the order (its coins unlocked) and sell again.
 */
export function PendingSellActions({ order }: { order: RampOrder }) {
  const { t } = useTranslation(NAMESPACE);
  const client = useQueryClient();
  const errorMessage = useErrorMessage();
  const [busy, setBusy] = useState(false);
  const link = order.checkoutUrl ?? checkoutLinks.recall(order.id);

  async function cancel() {
    try {
      await dialog.confirm({ text: t('ramp.cancelConfirm'), confirmButtonText: t('ramp.cancelOrder') });
    } catch {
      return; // not confirmed: nothing changes
    }
    setBusy(true);
    try {
      const updated = await cancelSell(order.id);
      checkoutLinks.forget(order.id);
      client.setQueryData(rampKeys.order(order.id), updated);
      toast.success(t('ramp.cancelled'));
    } catch (err) {
      toast.fail(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div data-testid="ramp-pending-sell">
      {link ? (
        <Button block color="primary" data-testid="ramp-continue" onClick={() => goToCheckout.assign(link)}>
          {t('ramp.continueCheckout')}
        </Button>
      ) : (
        <p className={ui.label} data-testid="ramp-checkout-once">
          {t('ramp.checkoutOnce')}
        </p>
      )}
      <Button
        block
        fill="outline"
        color="danger"
        loading={busy}
        style={{ marginTop: 8 }}
        data-testid="ramp-cancel"
        onClick={() => void cancel()}
      >
        {t('ramp.cancelOrder')}
      </Button>
    </div>
  );
}
