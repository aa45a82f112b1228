import { useTranslation } from '@cw/shared-state/i18n';
import { Button, Popup } from 'antd-mobile';
import { NAMESPACE } from '../../../i18n.ts';
import type { ConvertCoinInfo } from '../lib/coins.ts';
import * as styles from './convert-page.module.css';
import { QuoteRows } from './quote-rows.tsx';
import { useNow } from './use-now.ts';
import type { HeldQuote } from './use-quote.ts';

interface ExpiredDialogProps {
  quote: HeldQuote | null;
  busy: boolean;
  /** The catalogue's coins, for the amounts' decimals. */
  coins: readonly ConvertCoinInfo[];
  onAccept: (quote: HeldQuote) => void;
  onCancel: () => void;
}

/** "Rate expired and updated": the new rate, which converts only if the user accepts it. */
export function ExpiredDialog({ quote, busy, coins, onAccept, onCancel }: ExpiredDialogProps) {
  const { t } = useTranslation(NAMESPACE);
  const now = useNow();
  const left = quote ? Math.max(0, Math.ceil((quote.expiresAtMs - now) / 1000)) : 0;
  return (
    <Popup visible={quote !== null} onMaskClick={onCancel} bodyStyle={{ borderRadius: '12px 12px 0 0' }}>
      {quote ? (
        <div className={styles.body} data-testid="rate-expired-dialog">
          <div className={styles.strong} data-testid="rate-expired-title">
            {t('convert.expired.title')}
          </div>
          <QuoteRows
            quote={quote}
            coins={coins}
            left={left}
            testId="rate-expired"
            expiredText={t('convert.expiredShort')}
          />
          <div className={styles.row}>
            <Button block onClick={onCancel} data-testid="rate-expired-cancel">
              {t('convert.cancel')}
            </Button>
            <Button
              block
              color="primary"
              loading={busy}
              onClick={() => onAccept(quote)}
              data-testid="rate-expired-accept"
            >
              {t('convert.acceptNewRate')}
            </Button>
          </div>
        </div>
      ) : null}
    </Popup>
  );
}
