import { useTranslation } from '@cw/shared-state/i18n';
import { useSearchParams } from '@cw/shared-state/router';
import { ErrorState, LoadingState } from '@cw/shared-ui/states';
import { NAMESPACE } from '../../../i18n.ts';
import { useConvertCoins } from '../hooks/use-convert-coins.ts';
import { type ConvertCoin, isConvertCoin } from '../utils/coins.ts';
import { ConvertPage } from './convert-page.tsx';
import { HistoryList } from './history-list.tsx';

/** /convert/detailHistory?from=&to=: the open history of one pair, opened from a conversion's details. */
function PairHistoryScreen() {
  const { t } = useTranslation(NAMESPACE);
  const [params] = useSearchParams();
  const { coins, isError, refetch } = useConvertCoins();
  const from = params.get('from');
  const to = params.get('to');
  // The pair is checked against the catalogue's coins, so the list waits for it.
  if (!coins)
    return (
      <ConvertPage title={t('convert.history.title')} testId="convert-detail-history" parent="/convert/history">
        {isError ? <ErrorState onRetry={() => void refetch()} /> : <LoadingState />}
      </ConvertPage>
    );
  const pair: { from?: ConvertCoin; to?: ConvertCoin } = {
    ...(isConvertCoin(from, coins) ? { from } : {}),
    ...(isConvertCoin(to, coins) ? { to } : {}),
  };
  const title =
    pair.from && pair.to ? `${t('convert.history.pairTitle')} ${pair.from} → ${pair.to}` : t('convert.history.title');
  return (
    <ConvertPage title={title} testId="convert-detail-history" parent="/convert/history">
      <HistoryList pair={pair} />
    </ConvertPage>
  );
}

export default PairHistoryScreen;
