import { isApiError } from '@cw/shared-state/api';
import { useCodeMessage, useErrorMessage } from '@cw/shared-state/errors';
import { useTranslation } from '@cw/shared-state/i18n';
import { type PasskeyAnswer, passkeyAnswer } from '@cw/shared-state/passkeys';
import { useNavigate } from '@cw/shared-state/router';
import { useSession } from '@cw/shared-state/session';
import { dialog } from '@cw/shared-ui/dialog';
import { toast } from '@cw/shared-ui/toast';
import { useRef } from 'react';
import { NAMESPACE } from '../../../i18n.ts';
import type { PaymentMethod } from '../../../lib/payment-methods.ts';
import { usePlaceOrder } from '../api/ramp-api.ts';
import { useSecondFactor } from '../api/second-factor.ts';
import { checkoutLinks } from '../utils/checkout-link.ts';
import { factorFields, type SellVerification, verificationReady } from './sell-verification.ts';
import type { RampForm } from './use-ramp-form.ts';

/** Leaves the app for the provider's checkout (its own origin); tests replace it. */
export const goToCheckout = { assign: (url: string) => window.location.assign(url) };

/**
 * Placing the order at the shown quote: the chat-app dialog first when the sell's buyer pays only by
 * chat app and the user has none active ("add and activate it", which leads to adding one), then
 * the order, then the provider's checkout. An expired quote is refreshed and must be accepted again.
 * A sell carries the fund password (once set) and the `withdraw` e-mail code, as a withdrawal does;
 * a wrong one is toasted in the server's (translated) words and the form keeps its values. With a
 * second factor on, the sell carries it too: the typed app or recovery code, else a passkey's answer.
 */
export function useSubmit(form: RampForm, methods: readonly PaymentMethod[], verification: SellVerification) {
  const { t } = useTranslation(NAMESPACE);
  const navigate = useNavigate();
  const errorMessage = useErrorMessage();
  const codeMessage = useCodeMessage();
  const place = usePlaceOrder();
  const key = useRef<string>(crypto.randomUUID());
  const hasFundPassword = useSession((s) => s.me?.hasFundPassword === true);
  const factor = useSecondFactor().data;

  async function chatAppDialog() {
    try {
      await dialog.confirm({ text: codeMessage('RAMP_CHAT_APP_ONLY'), confirmButtonText: t('ramp.addChatApp') });
      void navigate('/buySell/paymentMethods/add?kind=chat_app');
    } catch {
      // Cancelled: stay on the form.
    }
  }

  /** The factor fields of a sell: as typed, or a passkey's answer when one can answer and nothing was typed. */
  async function factorOf(): Promise<ReturnType<typeof factorFields> | { passkey: PasskeyAnswer }> {
    const typed = factorFields(verification.factorCode);
    if (Object.keys(typed).length > 0 || !factor || factor.passkeys === 0) return typed;
    return { passkey: await passkeyAnswer() };
  }

  async function submit() {
    const q = form.quote;
    if (!q || place.isPending || form.needsAccept || !form.values.terms) return;
    const chatOnly = q.side === 'sell' && q.payoutKinds.length === 1 && q.payoutKinds[0] === 'chat_app';
    const chatActive = methods.some((m) => m.kind === 'chat_app' && m.active);
    if (chatOnly && !chatActive) return void chatAppDialog();
    if (q.side === 'sell' && !verificationReady(verification, hasFundPassword, factor)) {
      const codesReady = verificationReady(verification, hasFundPassword, undefined);
      return void toast.fail(
        t(codesReady ? 'ramp.factorMissing' : hasFundPassword ? 'ramp.verifyMissing' : 'ramp.codeMissing'),
      );
    }
    let factorBody: Awaited<ReturnType<typeof factorOf>> = {};
    if (q.side === 'sell') {
      try {
        factorBody = await factorOf();
      } catch (error) {
        const name = (error as { name?: string }).name;
        return void toast.fail(
          name === 'NotAllowedError' || name === 'AbortError' ? t('ramp.passkeyCancelled') : errorMessage(error),
        );
      }
    }
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
              ...factorBody,
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

  return { submit, pending: place.isPending, factor };
}
