import '../account.css';
import { useTranslation } from 'react-i18next';
import { AccountPage } from './account-page.tsx';
import { ResetPasswordForm } from './reset-password-form.tsx';

/** /editUserPassword: reset the login password with an e-mail code, on one page. */
export default function ChangePasswordByCodeScreen() {
  const { t } = useTranslation('host');
  return (
    <AccountPage title={t('account.title.editUserPassword')} testId="edit-user-password-screen">
      <ResetPasswordForm twoSteps={false} testId="edit-user-password-form" />
    </AccountPage>
  );
}
