import '../account.css';
import { useTranslation } from 'react-i18next';
import { AccountPage } from './account-page.tsx';
import { ResetPasswordForm } from './reset-password-form.tsx';

/** /forgetPassword: e-mail + code, then the new password and its confirmation. */
export default function ForgotPasswordScreen() {
  const { t } = useTranslation('host');
  return (
    <AccountPage title={t('account.title.forgetPassword')} testId="forget-password-screen">
      <ResetPasswordForm twoSteps testId="forget-password-form" />
    </AccountPage>
  );
}
