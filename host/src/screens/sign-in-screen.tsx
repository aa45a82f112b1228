import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

export function SignInScreen() {
  const { t } = useTranslation('host');
  return (
    <main className="screen">
      <h1>{t('signIn.title')}</h1>
      <nav className="dev-links">
        <Link to="/coinTopup">{t('nav.wallet')}</Link>
        <Link to="/convert">{t('nav.convert')}</Link>
        <Link to="/rewards">{t('nav.rewards')}</Link>
        <Link to="/mail">{t('nav.mail')}</Link>
        <Link to="/settings">{t('nav.settings')}</Link>
      </nav>
    </main>
  );
}
