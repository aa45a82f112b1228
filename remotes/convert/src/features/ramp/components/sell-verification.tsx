import { useErrorMessage } from '@cw/shared-state/errors';
import { currentLanguage, useTranslation } from '@cw/shared-state/i18n';
import { useSession } from '@cw/shared-state/session';
import { CountdownButton } from '@cw/shared-ui/countdown-button';
import { PasswordField } from '@cw/shared-ui/password-field';
import { toast } from '@cw/shared-ui/toast';
import { NAMESPACE } from '../../../i18n.ts';
import * as ui from '../../../lib/trade.module.css';
import { sendSellCode } from '../api/ramp-api.ts';
import { useSecondFactor } from '../api/second-factor.ts';
import type { SellVerification } from '../hooks/sell-verification.ts';
import * as extra from './ramp.module.css';

/** A new code is offered after this long (the server's resend cooldown). */
const RESEND_SECONDS = 60;
const digits = (value: string) => value.replace(/\D/g, '').slice(0, 6);

/**
 * A sell sends the coins out of the wallet as a withdrawal to the provider: a stolen session alone
 * must not do it (issue 38), so the sell asks for what a withdrawal asks for.
 */
export function SellVerificationFields({
  value,
  onChange,
}: {
  value: SellVerification;
  onChange: (next: SellVerification) => void;
}) {
  const { t } = useTranslation(NAMESPACE);
  const errorMessage = useErrorMessage();
  const me = useSession((s) => s.me);
  const factor = useSecondFactor().data;
  const onSend = async () => {
    try {
      await sendSellCode(currentLanguage());
    } catch (error) {
      toast.fail(errorMessage(error));
      throw error;
    }
  };
  return (
    <section className={ui.card} data-testid="ramp-verify">
      <p className={ui.muted}>{t('ramp.verifyNote', { email: me?.emailMasked ?? '' })}</p>
      {me?.hasFundPassword ? (
        <>
          <label className={ui.label} htmlFor="ramp-fund-password">
            {t('ramp.fundPassword')}
          </label>
          <PasswordField
            id="ramp-fund-password"
            value={value.fundPassword}
            onChange={(event) => onChange({ ...value, fundPassword: digits(event.target.value) })}
            inputMode="numeric"
            autoComplete="off"
            maxLength={6}
            placeholder={t('ramp.fundPasswordPlaceholder')}
            data-testid="ramp-fund-password"
          />
        </>
      ) : null}
      <label className={ui.label} htmlFor="ramp-email-code">
        {t('ramp.emailCode')}
      </label>
      <div className={extra.amountRow}>
        <input
          id="ramp-email-code"
          className={ui.input}
          value={value.emailCode}
          onChange={(event) => onChange({ ...value, emailCode: digits(event.target.value) })}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          placeholder={t('ramp.emailCodePlaceholder')}
          data-testid="ramp-email-code"
        />
        <CountdownButton seconds={RESEND_SECONDS} onSend={onSend} size="small" data-testid="ramp-send-code" />
      </div>
      {factor?.totp ? (
        <>
          <label className={ui.label} htmlFor="ramp-factor-code">
            {t('ramp.factorCode')}
          </label>
          <input
            id="ramp-factor-code"
            className={ui.input}
            value={value.factorCode}
            onChange={(event) => onChange({ ...value, factorCode: event.target.value.slice(0, 40) })}
            autoComplete="one-time-code"
            autoCapitalize="off"
            spellCheck={false}
            placeholder={t('ramp.factorCodePlaceholder')}
            data-testid="ramp-factor-code"
          />
        </>
      ) : null}
      {factor && factor.passkeys > 0 ? (
        <p className={ui.muted} data-testid="ramp-passkey-note">
          {t(factor.totp ? 'ramp.passkeyOrCode' : 'ramp.passkeyNote')}
        </p>
      ) : null}
    </section>
  );
}
