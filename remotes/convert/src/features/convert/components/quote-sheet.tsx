import { useTranslation } from '@cw/shared-state/i18n';
import { Button, Popup } from 'antd-mobile';
import { NAMESPACE } from '../../../i18n.ts';
import { useNow } from '../../../lib/use-now.ts';
import type { ConvertCoinInfo } from '../utils/coins.ts';
import type { HeldQuote } from '../utils/held-quote.ts';
import * as styles from './convert-page.module.css';
import { QuoteRows } from './quote-rows.tsx';

export interface QuoteSheetProps {
  /** The quote shown; null: closed. */
  quote: HeldQuote | null;
  busy: boolean;
  /** The catalogue's coins, for the amounts' decimals. */
  coins: readonly ConvertCoinInfo[];
  onConfirm: (quote: HeldQuote) => void;
  onCancel: () => void;
}

/**
 * A bottom sheet holding a quote to agree to (the convert preview, "rate expired and updated"): a
 * title, the quote's rows with the countdown, cancel and confirm. `testId` prefixes every test id.
 */
export function QuoteSheet(
  props: QuoteSheetProps & {
    title: string;
    confirmText: string;
    expiredText: string;
    showPay?: boolean;
    /** Prefix of the rows', title's and cancel's test ids; the root and confirm name their own. */
    testId: string;
    rootTestId: string;
    confirmTestId: string;
  },
) {
  const { t } = useTranslation(NAMESPACE);
  const now = useNow();
  const { quote, testId } = props;
  const left = quote ? Math.max(0, Math.ceil((quote.expiresAtMs - now) / 1000)) : 0;
  return (
    <Popup visible={quote !== null} onMaskClick={props.onCancel} bodyStyle={{ borderRadius: '12px 12px 0 0' }}>
      {quote ? (
        <div className={styles.body} data-testid={props.rootTestId} role="dialog" aria-label={props.title}>
          <div className={styles.strong} data-testid={`${testId}-title`}>
            {props.title}
          </div>
          <QuoteRows
            quote={quote}
            coins={props.coins}
            left={left}
            testId={testId}
            showPay={props.showPay ?? false}
            expiredText={props.expiredText}
          />
          <div className={styles.row}>
            <Button block onClick={props.onCancel} data-testid={`${testId}-cancel`}>
              {t('convert.cancel')}
            </Button>
            <Button
              block
              color="primary"
              loading={props.busy}
              onClick={() => props.onConfirm(quote)}
              data-testid={props.confirmTestId}
            >
              {props.confirmText}
            </Button>
          </div>
        </div>
      ) : null}
    </Popup>
  );
}
