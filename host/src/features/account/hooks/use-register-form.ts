import { useErrorMessage } from '@cw/shared-state/errors';
import { useSession, useUserStore } from '@cw/shared-state/session';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { register } from '../api/account-api.ts';
import {
  checkCode,
  checkConfirm,
  checkCountry,
  checkEmail,
  checkInvite,
  checkNickname,
  checkPassword,
  checkUsername,
} from '../utils/field-checks.ts';
import { notifyFail, notifySuccess } from '../utils/notify.ts';
import { type ErrorFields, type FieldProblem, useForm } from './use-form.ts';
import { useSendCode } from './use-send-code.ts';
import { useSubmit } from './use-submit.ts';

const CHECKS = {
  username: checkUsername,
  nickname: checkNickname,
  country: checkCountry,
  password: checkPassword,
  confirmPassword: checkConfirm,
  email: checkEmail,
  code: checkCode,
  inviteCode: checkInvite,
};

type Values = { [K in keyof typeof CHECKS]: string };

const ERROR_FIELDS: ErrorFields<Values> = {
  USERNAME_EXISTS: 'username',
  EMAIL_EXISTS: 'email',
  WEAK_PASSWORD: 'password',
  COMMON_PASSWORD: 'password',
  PASSWORD_MATCHES_ACCOUNT: 'password',
  PASSWORD_MISMATCH: 'confirmPassword',
  WRONG_VERIFICATION_CODE: 'code',
  VERIFICATION_CODE_EXPIRED: 'code',
  VERIFICATION_CODE_NOT_REQUESTED: 'code',
  INVITE_CODE_INVALID: 'inviteCode',
};

/**
 * The registration form: fields with their checks, the agreement box, the e-mailed code (the
 * address is remembered for the login form) and submit, which signs the new user in.
 */
export function useRegisterForm() {
  const { t } = useTranslation('host');
  const navigate = useNavigate();
  const message = useErrorMessage();
  const setEmail = useUserStore((state) => state.setEmail);
  const signedIn = useSession((state) => state.signedIn);
  // An invite link (/signIn?invite=CODE) fills the code in; the user may still change or clear it.
  const [params] = useSearchParams();
  const form = useForm<Values>(
    {
      username: '',
      nickname: '',
      country: '',
      password: '',
      confirmPassword: '',
      email: '',
      code: '',
      inviteCode: '',
    },
    CHECKS,
    () => ({ email: useUserStore.getState().user.email, inviteCode: (params.get('invite') ?? '').slice(0, 20) }),
  );
  const [agreed, setAgreed] = useState(false);
  const [agreementProblem, setAgreementProblem] = useState<FieldProblem | undefined>();
  const submit = useSubmit(register);
  const requestCode = useSendCode('register', (error) => form.showServerError(error, ERROR_FIELDS));

  const sendCode = async () => {
    if (!form.validate(['email'])) return null;
    const email = form.values.email.trim();
    setEmail(email);
    return requestCode(email);
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const valid = form.validate();
    setAgreementProblem(agreed ? undefined : { rule: 'agreement.required' });
    if (!valid || !agreed) return;
    submit.mutate(form.values, {
      onSuccess: (me) => {
        setEmail(me.email);
        signedIn(me);
        notifySuccess(t('account.signIn.success'));
        navigate('/appDown', { replace: true });
      },
      onError: (error) => {
        if (!form.showServerError(error, ERROR_FIELDS)) notifyFail(message(error, 'REGISTRATION_FAILED'));
      },
    });
  };

  const agree = (checked: boolean) => {
    setAgreed(checked);
    if (checked) setAgreementProblem(undefined);
  };
  return { form, agreed, agree, agreementProblem, sendCode, onSubmit, submitting: submit.isPending };
}
