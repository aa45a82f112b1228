import { useTranslation } from '@cw/shared-state/i18n';
import { NAMESPACE } from '../../../i18n.ts';
import { QuoteSheet, type QuoteSheetProps } from './quote-sheet.tsx';

/**
 * The step between "Convert" and converting, as Binance Convert has it: the quote with its countdown,
 * what the user pays and receives, the rate and the fee; nothing converts until Confirm. A quote that
 * expires here is not accepted: Confirm then brings "Rate expired and updated" with the new rate,
 * which converts only when confirmed in its turn.
 */
export function PreviewSheet(props: QuoteSheetProps) {
  const { t } = useTranslation(NAMESPACE);
  return (
    <QuoteSheet
      {...props}
      title={t('convert.preview.title')}
      confirmText={t('convert.preview.confirm')}
      expiredText={t('convert.expiredHint')}
      showPay
      testId="convert-preview"
      rootTestId="convert-preview"
      confirmTestId="convert-preview-confirm"
    />
  );
}
