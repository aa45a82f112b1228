import { useTranslation } from '@cw/shared-state/i18n';
import { NAMESPACE } from '../../../i18n.ts';
import { ConvertPage } from './convert-page.tsx';
import { HistoryList } from './history-list.tsx';

/** /convert/history: every conversion of the user. */
function HistoryScreen() {
  const { t } = useTranslation(NAMESPACE);
  return (
    <ConvertPage title={t('convert.history.title')} testId="convert-history" parent="/convert">
      <HistoryList pair={{}} />
    </ConvertPage>
  );
}

export default HistoryScreen;
