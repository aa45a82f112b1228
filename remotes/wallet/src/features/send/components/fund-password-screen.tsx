import { useErrorMessage } from '@cw/shared-state/errors';
import { useTranslation } from '@cw/shared-state/i18n';
import { useSession } from '@cw/shared-state/session';
import { PasswordField } from '@cw/shared-ui/password-field';
import { toast } from '@cw/shared-ui/toast';
import { Button } from 'antd-mobile';
import { type FormEvent, useState } from 'react';
import { NAMESPACE } from '../../../i18n.ts';
import { useBackOr } from '../../../lib/use-back.ts';
import * as ui from '../../../lib/wallet-page.module.css';
import { WalletPage } from '../../../lib/wallet-page.tsx';
import { sendFundPasswordCode } from '../api/send.ts';
import { useSetFundPasswordMutation } from '../api/send-queries.ts';
import { EmailCodeField } from './email-code-field.tsx';

const SIX_DIGITS = /^\d{6}$/;
const digits = (text: string) => text.replace(/\D/g, '').slice(0, 6);

/** /coinTopup/verification/capitalPwd: set (or change) the fund password with a code e-mailed to the account. */
export default function FundPasswordScreen() {
  const { t } = useTranslation(NAMESPACE);
  const errorMessage = useErrorMessage();
  const back = useBackOr('/coinTopup');
  const _me = useSession((s) => s.me);
  const refresh = useSession((s) => s.refresh);
  const [values, setValues] = useState({ code: '', fundPassword: '', confirmFundPassword: '' });
  const [problem, setProblem] = useState<string | null>(null);
  const save = useSetFundPasswordMutation();

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
        <EmailCodeField
          value={values.code}
          onChange={(code) => setValues((v) => ({ ...v, code }))}
          send={sendFundPasswordCode}
          testId="capital-code"
          sendTestId="capital-send-code"
        />
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
