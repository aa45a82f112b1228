import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCountdown } from '../hooks/use-countdown.ts';
import { useHydrated } from '../hooks/use-hydrated.ts';
import { useSubmit } from '../hooks/use-submit.ts';

export const RESEND_SECONDS = 60;

/**
 * "Send code" with the resend countdown. `onSend` requests the code and
 * resolves to the seconds until a resend is allowed, or null when it failed
 * (the caller has shown why).
 */
export function SendCodeButton({
  onSend,
  testId,
  alreadySent = false,
}: {
  onSend: () => Promise<number | null>;
  testId: string;
  /** A code went out before this screen (a sign-in's new-device mail): the button says "resend". */
  alreadySent?: boolean;
}) {
  const { t } = useTranslation('host');
  const { left, start } = useCountdown();
  const request = useSubmit(onSend);
  const sending = request.isPending;
  const [sentOnce, setSentOnce] = useState(alreadySent);

  const send = () =>
    request.mutate(undefined, {
      onSuccess: (wait) => {
        if (wait === null) return;
        setSentOnce(true);
        start(wait);
      },
    });

  // Before the app has taken a pre-rendered form over, a tap sends nothing: say so (as the country field does).
  const live = useHydrated();
  let label = sentOnce ? t('account.code.resend') : t('account.code.send');
  if (left > 0) label = t('account.code.countdown', { seconds: left });
  return (
    <button
      type="button"
      className="account-send-code"
      data-testid={testId}
      disabled={sending || left > 0}
      aria-busy={sending}
      aria-disabled={live ? undefined : true}
      onClick={send}
    >
      {label}
    </button>
  );
}
