import '../account.css';
import '../security-extras.css';
import { ApiError } from '@cw/shared-state/api';
import { useErrorMessage } from '@cw/shared-state/errors';
import { passkeyAnswer, passkeysSupported } from '@cw/shared-state/passkeys';
import { useSession } from '@cw/shared-state/session';
import Button from 'antd-mobile/es/components/button';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { securityStatus } from '../api/account-api.ts';
import { changeEmail, type FactorProof, sendEmailChangeCode } from '../api/email-change-api.ts';
import type { FieldProblem } from '../hooks/use-form.ts';
import { checkCode, checkEmail } from '../utils/field-checks.ts';
import { notifyFail, notifySuccess } from '../utils/notify.ts';
import { AccountPage } from './account-page.tsx';
import { FormField } from './form-field.tsx';
import { ReauthForm } from './reauth-form.tsx';
import { RESEND_SECONDS, SendCodeButton } from './send-code-button.tsx';
import { SubmitButton } from './submit-button.tsx';

const isCode = (error: unknown, code: string) => error instanceof ApiError && error.code === code;

/**
 * /changeEmail (login needed): the new address, the code mailed to it, the second factor when one is
 * on. A security change: when the server asks for a fresh proof (REAUTH_REQUIRED) the password form
 * comes first, then the step that asked is tried again.
 */
export default function ChangeEmailScreen() {
  const { t } = useTranslation('host');
  const navigate = useNavigate();
  const message = useErrorMessage();
  const me = useSession((state) => state.me);
  const refresh = useSession((state) => state.refresh);
  const [newEmail, setNewEmail] = useState('');
  const [code, setCode] = useState('');
  const [factorCode, setFactorCode] = useState('');
  const [hasFactor, setHasFactor] = useState(false);
  const [endOthers, setEndOthers] = useState(true);
  const [problems, setProblems] = useState<{ newEmail?: FieldProblem; code?: FieldProblem }>({});
  const [busy, setBusy] = useState(false);
  // The step to try again once the password is proved.
  const retry = useRef<(() => unknown) | null>(null);
  const [reauth, setReauth] = useState(false);

  useEffect(() => {
    securityStatus().then(
      (s) => setHasFactor(s.totp || s.passkeys > 0),
      () => {},
    );
  }, []);

  const failed = (error: unknown, again: () => unknown) => {
    if (isCode(error, 'REAUTH_REQUIRED')) {
      retry.current = again;
      setReauth(true);
    } else if (isCode(error, 'EMAIL_EXISTS') || isCode(error, 'EMAIL_UNCHANGED')) {
      setProblems({ newEmail: { error } });
    } else if (isCode(error, 'WRONG_VERIFICATION_CODE') || isCode(error, 'VERIFICATION_CODE_EXPIRED')) {
      setProblems({ code: { error } });
    } else if (isCode(error, 'FACTOR_REQUIRED')) {
      setHasFactor(true);
      notifyFail(message(error));
    } else notifyFail(message(error));
  };

  const send = async (): Promise<number | null> => {
    const rule = checkEmail(newEmail);
    if (rule) {
      setProblems({ newEmail: { rule } });
      return null;
    }
    setProblems({});
    try {
      const { resendAfterSeconds } = await sendEmailChangeCode(newEmail);
      notifySuccess(t('account.emailChange.codeSent'));
      return resendAfterSeconds || RESEND_SECONDS;
    } catch (error) {
      failed(error, () => void send());
      return null;
    }
  };

  const submit = async (factor: FactorProof) => {
    setBusy(true);
    try {
      const result = await changeEmail({ newEmail, code, endOtherSessions: endOthers, factor });
      notifySuccess(t('account.emailChange.done', { email: result.user.emailMasked }));
      await refresh();
      navigate('/securitySettings', { replace: true });
    } catch (error) {
      failed(error, () => void submit(factor));
    } finally {
      setBusy(false);
    }
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const rule = checkEmail(newEmail);
    const codeRule = checkCode(code.trim());
    if (rule || codeRule) {
      setProblems({ ...(rule ? { newEmail: { rule } } : {}), ...(codeRule ? { code: { rule: codeRule } } : {}) });
      return;
    }
    if (!busy) void submit(hasFactor ? { typed: factorCode } : null);
  };

  if (!me) return null;
  return (
    <AccountPage title={t('account.emailChange.title')} testId="change-email-screen">
      <p className="account-hint" data-testid="change-email-current">
        {t('account.emailChange.current', { email: me.emailMasked })}
      </p>
      <p className="account-hint">{t('account.emailChange.explain')}</p>
      {reauth ? (
        <ReauthForm
          testId="change-email-reauth"
          onProved={() => {
            setReauth(false);
            retry.current?.();
          }}
        />
      ) : (
        <form className="account-form" noValidate onSubmit={onSubmit}>
          <FormField name="newEmail" label={t('account.emailChange.newEmail')} problem={problems.newEmail}>
            <input
              id="newEmail"
              className="account-input"
              type="email"
              inputMode="email"
              autoComplete="email"
              autoCapitalize="off"
              spellCheck={false}
              value={newEmail}
              onChange={(event) => setNewEmail(event.target.value)}
              placeholder={t('account.placeholder.email')}
              data-testid="change-email-new"
            />
          </FormField>
          <FormField
            name="code"
            label={t('account.emailChange.code')}
            problem={problems.code}
            extra={<SendCodeButton onSend={send} testId="change-email-send" />}
          >
            <input
              id="code"
              className="account-input"
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={6}
              value={code}
              onChange={(event) => setCode(event.target.value)}
              placeholder={t('account.placeholder.code')}
              data-testid="change-email-code"
            />
          </FormField>
          {hasFactor && (
            <>
              <FormField name="factorCode" label={t('account.totp.code')} problem={undefined}>
                <input
                  id="factorCode"
                  className="account-input"
                  value={factorCode}
                  onChange={(event) => setFactorCode(event.target.value)}
                  autoComplete="one-time-code"
                  autoCapitalize="off"
                  spellCheck={false}
                  placeholder={t('account.totp.codePlaceholder')}
                  data-testid="change-email-factor"
                />
              </FormField>
              {passkeysSupported() && (
                <Button
                  block
                  disabled={busy}
                  onClick={async () => {
                    try {
                      await submit({ passkey: await passkeyAnswer('step_up') });
                    } catch (error) {
                      notifyFail(message(error));
                    }
                  }}
                  data-testid="change-email-passkey"
                >
                  {t('account.emailChange.withPasskey')}
                </Button>
              )}
            </>
          )}
          <label className="account-hint account-check">
            <input
              type="checkbox"
              checked={endOthers}
              onChange={(event) => setEndOthers(event.target.checked)}
              data-testid="change-email-end-others"
            />{' '}
            {t('account.password.endOthers')}
          </label>
          <SubmitButton loading={busy} testId="change-email-submit">
            {t('account.action.confirmChange')}
          </SubmitButton>
        </form>
      )}
    </AccountPage>
  );
}
