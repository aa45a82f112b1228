import '../account.css';
import { useTranslation } from 'react-i18next';
import { AccountPage } from './account-page.tsx';

const PARAGRAPHS = ['p1', 'p2', 'p3', 'p4', 'p5', 'p6'] as const;

/** /agreement: the user agreement, under its own title. */
export default function AgreementScreen() {
  const { t } = useTranslation('host');
  return (
    <AccountPage title={t('account.title.agreement')} testId="agreement-screen">
      <article className="account-agreement">
        <h2>{t('account.agreement.heading')}</h2>
        {PARAGRAPHS.map((p) => (
          <p key={p}>{t(`account.agreement.${p}`)}</p>
        ))}
      </article>
    </AccountPage>
  );
}
