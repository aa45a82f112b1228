import { useTranslation } from '@cw/shared-state/i18n';
import { coinDisplay, useAmountFormat } from '@cw/shared-state/money';
import { useNavigate, useSearchParams } from '@cw/shared-state/router';
import { TapAmount } from '@cw/shared-ui/amount';
import { EmptyState, ErrorState, LoadingState } from '@cw/shared-ui/states';
import { Button, Tag } from 'antd-mobile';
import { NAMESPACE } from '../../../i18n.ts';
import type { Conversion } from '../api/convert-api.ts';
import { useConversion } from '../api/convert-queries.ts';
import { useConvertCoins } from '../hooks/use-convert-coins.ts';
import type { ConvertCoinInfo } from '../utils/coins.ts';
import * as styles from './convert-page.module.css';
import { ConvertPage } from './convert-page.tsx';
import { formatTime } from './history-list.tsx';

/** The conversion's fields: status, give, get, rate, fee (rounded up), time and id. */
function DetailCard({ conversion: c, coins }: { conversion: Conversion; coins: readonly ConvertCoinInfo[] }) {
  const { t, i18n } = useTranslation(NAMESPACE);
  const { rate } = useAmountFormat();
  return (
    <div className={`${styles.card} ${styles.details}`} data-testid="convert-detail-card">
      <div className={styles.row}>
        <span className={styles.label}>{t('convert.detail.status')}</span>
        <Tag color="success" data-testid="convert-detail-status">
          {t('convert.status.completed')}
        </Tag>
      </div>
      <div className={styles.row}>
        <span className={styles.label}>{t('convert.give')}</span>
        <TapAmount minor={c.amountMinor} coin={coinDisplay(c.from, coins)} code={c.from} testId="convert-detail-give" />
      </div>
      <div className={styles.row}>
        <span className={styles.label}>{t('convert.get')}</span>
        <TapAmount
          className={styles.strong}
          minor={c.receiveMinor}
          coin={coinDisplay(c.to, coins)}
          code={c.to}
          testId="convert-detail-receive"
        />
      </div>
      <div className={styles.row}>
        <span className={styles.label}>{t('convert.rate')}</span>
        <span data-testid="convert-detail-rate">
          1 {c.from} ≈ {rate(c.rate)} {c.to}
        </span>
      </div>
      <div className={styles.row}>
        <span className={styles.label}>{t('convert.fee')}</span>
        <TapAmount minor={c.feeMinor} coin={coinDisplay(c.from, coins)} code={c.from} rounding="up" />
      </div>
      <div className={styles.row}>
        <span className={styles.label}>{t('convert.detail.time')}</span>
        <span>{formatTime(c.createdAt, i18n.language)}</span>
      </div>
      <div className={styles.row}>
        <span className={styles.label}>{t('convert.detail.id')}</span>
        <span className={styles.mono} data-testid="convert-detail-id">
          {c.id}
        </span>
      </div>
    </div>
  );
}

/** /convert/detail?id=: one conversion's transaction details. */
function DetailScreen() {
  const { t } = useTranslation(NAMESPACE);
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const id = params.get('id') ?? '';
  const conversion = useConversion(id);
  const catalogue = useConvertCoins();
  const coins = catalogue.coins;
  const c = conversion.data;
  let body = <LoadingState />;
  // A link without an id: nothing to ask for (the query is off), so nothing to show or retry.
  if (id === '') body = <EmptyState />;
  else if (conversion.isError) body = <ErrorState onRetry={() => void conversion.refetch()} />;
  else if (catalogue.isError) body = <ErrorState onRetry={() => void catalogue.refetch()} />;
  // The amounts need the catalogue's decimals: stay loading until both are here.
  else if (c && coins)
    body = (
      <>
        <DetailCard conversion={c} coins={coins} />
        <Button
          block
          onClick={() => void navigate(`/convert/detailHistory?from=${c.from}&to=${c.to}`)}
          data-testid="convert-detail-history-link"
        >
          {t('convert.detail.openHistory')}
        </Button>
        <Button block color="primary" onClick={() => void navigate(`/convert?from=${c.from}&to=${c.to}`)}>
          {t('convert.detail.again')}
        </Button>
      </>
    );
  return (
    <ConvertPage title={t('convert.detail.title')} testId="convert-detail" parent="/convert/history">
      {body}
    </ConvertPage>
  );
}

export default DetailScreen;
