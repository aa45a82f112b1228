import { useTranslation } from '@cw/shared-state/i18n';
import { Button, Popup } from 'antd-mobile';
import { NAMESPACE } from '../../../i18n.ts';
import type { ConvertCoinInfo } from '../lib/coins.ts';
import * as styles from './convert-page.module.css';
import { QuoteRows } from './quote-rows.tsx';
import { useNow } from './use-now.ts';
import type { HeldQuote } from './use-quote.ts';

interface PreviewSheetProps {
  /** The quote being previewed; null: closed. */
  quote: HeldQuote | null;
  busy: boolean;
  coins: readonly ConvertCoinInfo[];
  /** Confirming an expired quote converts nothing: the server answers with a new rate to accept. */
  onConfirm: (quote: HeldQuote) => void;
  onCancel: () => void;
}

/**
 * The step between "Convert" and converting, as Binance Convert has it: the quote with its countdown,
 * what the user pays and receives, the rate and the fee; nothing converts until Confirm. A quote that
 * expires here is not accepted: Confirm then brings "Rate expired and updated" with the new rate,
 * which converts only when confirmed in its turn.
 */
export function PreviewSheet({ quote, busy, coins, onConfirm, onCancel }: PreviewSheetProps) {
  const { t } = useTranslation(NAMESPACE);
  const now = useNow();
  const left = quote ? Math.max(0, Math.ceil((quote.expiresAtMs - now) / 1000)) : 0;
  return (
    <Popup visible={quote !== null} onMaskClick={onCancel} bodyStyle={{ borderRadius: '12px 12px 0 0' }}>
      {quote ? (
        <div
          className={styles.body}
          data-testid="convert-preview"
          role="dialog"
          aria-label={t('convert.preview.title')}
        >
          <div className={styles.strong}>{t('convert.preview.title')}</div>
          <QuoteRows
            quote={quote}
            coins={coins}
            left={left}
            testId="convert-preview"
            showPay
            expiredText={t('convert.expiredHint')}
          />
          <div className={styles.row}>
            <Button block onClick={onCancel} data-testid="convert-preview-cancel">
              {t('convert.cancel')}
            </Button>
            <Button
              block
              color="primary"
              loading={busy}
              onClick={() => onConfirm(quote)}
              data-testid="convert-preview-confirm"
            >
              {t('convert.preview.confirm')}
            </Button>
          </div>
        </div>
      ) : null}
    </Popup>
  );
}
