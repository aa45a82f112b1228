import { useTranslation } from '@cw/shared-state/i18n';
import { NAMESPACE } from '../../../i18n.ts';
import { reasonCode } from '../utils/failure-reason.ts';

/** Why an order ended, in the user's language; a reason the app does not know is shown as the provider sent it. */
export function FailureReason({ reason }: { reason: string }) {
  const { t } = useTranslation(NAMESPACE);
  const code = reasonCode(reason);
  return <span data-reason={reason}>{code ? t(`ramp.reason.${code}`) : reason}</span>;
}
