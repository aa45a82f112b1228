import { Button, type ButtonProps } from 'antd-mobile';
import { useState } from 'react';
import { useUiTranslation } from '../i18n/index.ts';
import { useCountdown } from './use-countdown.ts';

export interface CountdownButtonProps extends Omit<ButtonProps, 'onClick' | 'loading' | 'children'> {
  /** Countdown length in seconds. */
  seconds: number;
  /** Sends the code; the countdown starts only when it resolves (a rejection leaves the button ready). */
  onSend: () => Promise<unknown>;
  /** Label before the first send (default translated "send code"). */
  label?: string;
}

/** "Send code" button that, once sent, shows "resend in {{s}}s" and stays disabled while counting. */
export function CountdownButton({ seconds, onSend, label, disabled, ...buttonProps }: CountdownButtonProps) {
  const { t } = useUiTranslation();
  const { left, start } = useCountdown();
  const [sending, setSending] = useState(false);
  const counting = left > 0;

  const send = async () => {
    if (sending || counting) return;
    setSending(true);
    try {
      await onSend();
      start(seconds);
    } catch {
      // The caller shows its own error; the button stays ready for another try.
    } finally {
      setSending(false);
    }
  };

  return (
    <Button
      size="small"
      color="primary"
      fill="none"
      data-testid="countdown-button"
      {...buttonProps}
      disabled={disabled || counting}
      loading={sending}
      onClick={() => void send()}
    >
      {counting ? t('countdown.resend', { s: left }) : (label ?? t('countdown.send'))}
    </Button>
  );
}
