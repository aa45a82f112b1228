import { type CodePurpose, isApiError, retryAfterSeconds } from '@cw/shared-state/api';
import { useErrorMessage } from '@cw/shared-state/errors';
import { useTranslation } from 'react-i18next';
import { sendCode } from '../api/account-api.ts';
import { RESEND_SECONDS } from '../components/send-code-button.tsx';
import { notifyFail, notifySuccess } from '../utils/notify.ts';

/**
 * Request an e-mail code; resolves to the resend wait in seconds, or null
 * after showing why it failed (inline via `onFieldError` when it names a field,
 * else a fail toast). A "too soon" answer still starts the countdown.
 */
export function useSendCode(purpose: CodePurpose, onFieldError?: (error: unknown) => boolean) {
  const { t } = useTranslation('host');
  const message = useErrorMessage();
  return async (email?: string): Promise<number | null> => {
    try {
      const { resendAfterSeconds } = await sendCode(purpose, email);
      notifySuccess(t('account.code.sent'));
      return resendAfterSeconds || RESEND_SECONDS;
    } catch (error) {
      if (!onFieldError?.(error)) notifyFail(message(error));
      if (isApiError(error) && error.code === 'CODE_RESEND_TOO_SOON') return retryAfterSeconds(error) ?? RESEND_SECONDS;
      return null;
    }
  };
}
