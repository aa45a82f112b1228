import { useTranslation } from '@cw/shared-state/i18n';
import { NAMESPACE } from '../../../i18n.ts';
import { QuoteSheet, type QuoteSheetProps } from './quote-sheet.tsx';

/** "Rate expired and updated": the new rate, which converts only if the user accepts it. */
export function ExpiredDialog({
  onAccept,
  ...props
}: Omit<QuoteSheetProps, 'onConfirm'> & { onAccept: QuoteSheetProps['onConfirm'] }) {
  const { t } = useTranslation(NAMESPACE);
  return (
    <QuoteSheet
      {...props}
      onConfirm={onAccept}
      title={t('convert.expired.title')}
      confirmText={t('convert.acceptNewRate')}
      expiredText={t('convert.expiredShort')}
      testId="rate-expired"
      rootTestId="rate-expired-dialog"
      confirmTestId="rate-expired-accept"
    />
  );
}
