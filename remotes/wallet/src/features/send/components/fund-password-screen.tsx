import { useErrorMessage } from '@cw/shared-state/errors';
import { currentLanguage, useTranslation } from '@cw/shared-state/i18n';
import { useSession } from '@cw/shared-state/session';
import { CountdownButton } from '@cw/shared-ui/countdown-button';
import { PasswordField } from '@cw/shared-ui/password-field';
import { toast } from '@cw/shared-ui/toast';
import { Button, Input } from 'antd-mobile';
import { type FormEvent, useState } from 'react';
import { NAMESPACE } from '../../../i18n.ts';
import { useBackOr } from '../../../lib/use-back.ts';
import * as ui from '../../../lib/wallet-page.module.css';
import { WalletPage } from '../../../lib/wallet-page.tsx';
import { sendFundPasswordCode } from '../api/send.ts';
import { useSetFundPasswordMutation } from '../api/send-queries.ts';

const SIX_DIGITS = /^\d{6}$/;
const digits = (text: string) => text.replace(/\D/g, '').slice(0, 6);

/** /coinTopup/verification/capitalPwd: set (or change) the fund password with a code e-mailed to the account. */
export default function FundPasswordScreen() {
  const { t } = useTranslation(NAMESPACE);
  const errorMessage = useErrorMessage();
  const back = useBackOr('/coinTopup');
  const me = useSession((s) => s.me);
  const refresh = useSession((s) => s.refresh);
  const [values, setValues] = useState({ code: '', fundPassword: '', confirmFundPassword: '' });
  const [problem, setProblem] = useState<string | null>(null);
  const save = useSetFundPasswordMutation();

  const sendCode = async () => {
    try {
      await sendFundPasswordCode(currentLanguage());
    } catch (error) {
      toast.fail(errorMessage(error));
      throw error;
    }
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!SIX_DIGITS.test(values.code)) return setProblem(t('verify.codeFormat'));
    if (!SIX_DIGITS.test(values.fundPassword)) return setProblem(t('verify.fundPasswordFormat'));
    if (values.fundPassword !== values.confirmFundPassword) return setProblem(t('verify.fundPasswordMismatch'));
    setProblem(null);
    save.mutate(values, {
      onSuccess: async () => {
        await refresh();
        toast.success(t('verify.fundPasswordSaved'));
        back();
      },
      onError: (error) => setProblem(errorMessage(error)),
    });
  };

  return (
    <WalletPage title={t('verify.capitalTitle')} testId="wallet-capital-pwd" parent="/coinTopup/send/affirm">
      <form className={`${ui.card} ${ui.field}`} noValidate onSubmit={onSubmit}>
        <p className={ui.muted}>{t('verify.codeSentTo', { email: me?.emailMasked ?? '' })}</p>
        <span className={ui.label}>{t('verify.code')}</span>
        <div className={ui.row}>
          <Input
            value={values.code}
            onChange={(code) => setValues((v) => ({ ...v, code: digits(code) }))}
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            className={ui.input}
            placeholder={t('verify.codePlaceholder')}
            data-testid="capital-code"
          />
          <CountdownButton seconds={60} onSend={sendCode} className={ui.nowrap} data-testid="capital-send-code" />
        </div>
        <label className={ui.label} htmlFor="wallet-new-fund-password">
          {t('verify.fundPassword')}
        </label>
        <PasswordField
          id="wallet-new-fund-password"
          value={values.fundPassword}
          onChange={(event) => setValues((v) => ({ ...v, fundPassword: digits(event.target.value) }))}
          inputMode="numeric"
          autoComplete="new-password"
          placeholder={t('verify.fundPasswordPlaceholder')}
          data-testid="capital-fund-password"
        />
        <label className={ui.label} htmlFor="wallet-confirm-fund-password">
          {t('verify.confirmFundPassword')}
        </label>
        <PasswordField
          id="wallet-confirm-fund-password"
          value={values.confirmFundPassword}
          onChange={(event) => setValues((v) => ({ ...v, confirmFundPassword: digits(event.target.value) }))}
          inputMode="numeric"
          autoComplete="new-password"
          placeholder={t('verify.fundPasswordPlaceholder')}
          data-testid="capital-confirm"
        />
        {problem && (
          <p className={ui.error} role="alert" data-testid="capital-error">
            {problem}
          </p>
        )}
        <Button type="submit" block color="primary" size="large" loading={save.isPending} data-testid="capital-submit">
          {t('verify.save')}
        </Button>
      </form>
    </WalletPage>
  );
}
