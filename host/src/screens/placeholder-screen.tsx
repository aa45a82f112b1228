import { useTranslation } from 'react-i18next';

export default function PlaceholderScreen() {
  const { t } = useTranslation('host');
  return <main className="screen">{t('common.loading')}</main>;
}
