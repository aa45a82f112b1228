import { useErrorMessage } from '@cw/shared-state/errors';
import { currentLanguage, type Language, useTranslation } from '@cw/shared-state/i18n';
import { useSession } from '@cw/shared-state/session';
import { CountdownButton } from '@cw/shared-ui/countdown-button';
import { toast } from '@cw/shared-ui/toast';
import { Input } from 'antd-mobile';
import { NAMESPACE } from '../../../i18n.ts';
import * as ui from '../../../lib/wallet-page.module.css';

/** A new resend is offered after this long. */
const RESEND_SECONDS = 60;

interface Props {
  value: string;
  onChange: (digits: string) => void;
  /** E-mails the code (in the UI language); a failure is toasted and the countdown does not start. */
  send: (language: Language) => Promise<unknown>;
  testId: string;
  sendTestId: string;
}

/** "Sent to a***@…", the 6-digit code input and the send button with its resend countdown. */
export function EmailCodeField({ value, onChange, send, testId, sendTestId }: Props) {
  const { t } = useTranslation(NAMESPACE);
  const errorMessage = useErrorMessage();
  const me = useSession((s) => s.me);
  const onSend = async () => {
    try {
      await send(currentLanguage());
    } catch (error) {
      toast.fail(errorMessage(error));
      throw error;
    }
  };
  return (
    <>
      <p className={ui.muted}>{t('verify.codeSentTo', { email: me?.emailMasked ?? '' })}</p>
      <span className={ui.label}>{t('verify.code')}</span>
      <div className={ui.row}>
        <Input
          value={value}
          onChange={(next) => onChange(next.replace(/\D/g, '').slice(0, 6))}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          className={ui.input}
          placeholder={t('verify.codePlaceholder')}
          data-testid={testId}
        />
        <CountdownButton seconds={RESEND_SECONDS} onSend={onSend} className={ui.nowrap} data-testid={sendTestId} />
      </div>
    </>
  );
}
