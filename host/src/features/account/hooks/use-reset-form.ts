import { useErrorMessage } from '@cw/shared-state/errors';
import { useSession, useUserStore } from '@cw/shared-state/session';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { resetPassword } from '../api/account-api.ts';
import { checkCode, checkConfirm, checkEmail, checkPassword } from '../utils/field-checks.ts';
import { notifyFail, notifySuccess } from '../utils/notify.ts';
import { type ErrorFields, useForm } from './use-form.ts';
import { useSendCode } from './use-send-code.ts';
import { useSubmit } from './use-submit.ts';

const CHECKS = { email: checkEmail, code: checkCode, password: checkPassword, confirmPassword: checkConfirm };
type Values = { email: string; code: string; password: string; confirmPassword: string };
const ERROR_FIELDS: ErrorFields<Values> = {
  WRONG_VERIFICATION_CODE: 'code',
  VERIFICATION_CODE_EXPIRED: 'code',
  VERIFICATION_CODE_NOT_REQUESTED: 'code',
  WEAK_PASSWORD: 'password',
  COMMON_PASSWORD: 'password',
  PASSWORD_MATCHES_ACCOUNT: 'password',
  PASSWORD_MISMATCH: 'confirmPassword',
};
const FIRST_STEP: (keyof Values)[] = ['email', 'code'];

/**
 * The reset form's state: e-mail (the signed-in user's, else the remembered one), code, new password,
 * and with `twoSteps` the step shown (a wrong code sends the user back to step 1).
 */
export function useResetForm(twoSteps: boolean) {
  const { t } = useTranslation('host');
  const navigate = useNavigate();
  const message = useErrorMessage();
  const me = useSession((state) => state.me);
  const signedOut = useSession((state) => state.signedOut);
  const rememberedEmail = useUserStore((state) => state.user.email);
  const setEmail = useUserStore((state) => state.setEmail);
  const form = useForm<Values>(
    { email: me?.email ?? rememberedEmail, code: '', password: '', confirmPassword: '' },
    CHECKS,
  );
  const [step, setStep] = useState<1 | 2>(1);
  const submit = useSubmit(resetPassword);
  const submitting = submit.isPending;
  const showFieldError = (error: unknown) => {
    const shown = form.showServerError(error, ERROR_FIELDS);
    if (shown && twoSteps && ERROR_FIELDS[(error as { code: string }).code] === 'code') setStep(1);
    return shown;
  };
  const requestCode = useSendCode('reset_password', showFieldError);
  const showStep1 = !twoSteps || step === 1;
  const showStep2 = !twoSteps || step === 2;

  const onSendCode = async () => {
    if (!form.validate(['email'])) return null;
    setEmail(form.values.email.trim());
    return requestCode(form.values.email.trim());
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (twoSteps && step === 1) {
      if (form.validate(FIRST_STEP)) setStep(2);
      return;
    }
    if (!form.validate()) return;
    submit.mutate(form.values, {
      onSuccess: () => {
        signedOut();
        notifySuccess(t('account.reset.done'));
        navigate('/login', { replace: true });
      },
      onError: (error) => {
        if (!showFieldError(error)) notifyFail(message(error));
      },
    });
  };

  return { form, me, step, setStep, showStep1, showStep2, onSendCode, onSubmit, submitting };
}
