import { isApiError } from '@cw/shared-state/api';
import { useCodeMessage, useErrorMessage } from '@cw/shared-state/errors';
import { useTranslation } from '@cw/shared-state/i18n';
import { useNavigate } from '@cw/shared-state/router';
import { useSession } from '@cw/shared-state/session';
import { dialog } from '@cw/shared-ui/dialog';
import { toast } from '@cw/shared-ui/toast';
import { useRef } from 'react';
import { NAMESPACE } from '../../../i18n.ts';
import type { PaymentMethod } from '../../../lib/payment-methods.ts';
import { usePlaceOrder } from '../api/ramp-api.ts';
import { checkoutLinks } from '../utils/checkout-link.ts';
import { type SellVerification, verificationReady } from './sell-verification.ts';
import type { RampForm } from './use-ramp-form.ts';

/** Leaves the app for the provider's checkout (its own origin); tests replace it. */
export const goToCheckout = { assign: (url: string) => window.location.assign(url) };

/**
 * Placing the order at the shown quote: the chat-app dialog first when the sell's buyer pays only by
 * chat app and the user has none active ("add and activate it", which leads to adding one), then
 * the order, then the provider's checkout. An expired quote is refreshed and must be accepted again.
 * A sell carries the fund password (once set) and the `withdraw` e-mail code, as a withdrawal does;
 * a wrong one is toasted in the server's (translated) words and the form keeps its values.
 */
export function useSubmit(form: RampForm, methods: readonly PaymentMethod[], verification: SellVerification) {
  const { t } = useTranslation(NAMESPACE);
  const navigate = useNavigate();
  const errorMessage = useErrorMessage();
  const codeMessage = useCodeMessage();
  const place = usePlaceOrder();
  const key = useRef<string>(crypto.randomUUID());
  const hasFundPassword = useSession((s) => s.me?.hasFundPassword === true);

  async function chatAppDialog() {
    try {
      await dialog.confirm({ text: codeMessage('RAMP_CHAT_APP_ONLY'), confirmButtonText: t('ramp.addChatApp') });
      void navigate('/buySell/paymentMethods/add?kind=chat_app');
    } catch {
      // Cancelled: stay on the form.
    }
  }

  function submit() {
    const q = form.quote;
    if (!q || place.isPending || form.needsAccept || !form.values.terms) return;
    const chatOnly = q.side === 'sell' && q.payoutKinds.length === 1 && q.payoutKinds[0] === 'chat_app';
    const chatActive = methods.some((m) => m.kind === 'chat_app' && m.active);
    if (chatOnly && !chatActive) return void chatAppDialog();
    if (q.side === 'sell' && !verificationReady(verification, hasFundPassword))
      return void toast.fail(t(hasFundPassword ? 'ramp.verifyMissing' : 'ramp.codeMissing'));
    const payout = chatOnly ? methods.find((m) => m.kind === 'chat_app' && m.active)?.id : form.values.payoutMethodId;
    place.mutate(
      {
        quoteId: q.id,
        termsAccepted: true,
        idempotencyKey: key.current,
        ...(q.side === 'sell' && payout ? { payoutMethodId: payout } : {}),
        ...(q.side === 'sell'
          ? {
              emailCode: verification.emailCode,
              ...(verification.fundPassword ? { fundPassword: verification.fundPassword } : {}),
            }
          : {}),
      },
      {
        onSuccess: (order) => {
          key.current = crypto.randomUUID();
          if (order.side === 'sell' && order.checkoutUrl) checkoutLinks.remember(order.id, order.checkoutUrl);
          if (order.checkoutUrl) goToCheckout.assign(order.checkoutUrl);
          else void navigate(`/buySell/order?id=${order.id}`);
        },
        onError: (error) => {
          key.current = crypto.randomUUID();
          if (isApiError(error) && error.code === 'RAMP_CHAT_APP_ONLY') return void chatAppDialog();
          if (isApiError(error) && error.code === 'RAMP_QUOTE_EXPIRED') form.refresh();
          toast.fail(errorMessage(error));
        },
      },
    );
  }

  return { submit, pending: place.isPending };
}
