import { useTranslation } from 'react-i18next';

export function PageLoading() {
  const { t } = useTranslation('host');
  return (
    <div className="page-loading" role="status" aria-live="polite">
      <span className="page-loading__spinner" aria-hidden="true" />
      <span className="visually-hidden">{t('common.loading')}</span>
    </div>
  );
}
