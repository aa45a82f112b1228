import { useTranslation } from '@cw/shared-state/i18n';
import { formatFiatValue, usePrices } from '@cw/shared-state/prices';
import { Tag } from 'antd-mobile';
import { NAMESPACE } from '../../../i18n.ts';
import * as styles from './convert-page.module.css';

/** "≈ $12.34" for an amount, with a "sandbox" tag when the prices are simulated. */
export function FiatLine({ asset, amountMinor, testId }: { asset: string; amountMinor: bigint; testId?: string }) {
  const { t } = useTranslation(NAMESPACE);
  const prices = usePrices();
  const text = formatFiatValue(prices.data, asset, amountMinor);
  if (text === null) return null;
  return (
    <span className={styles.muted} data-testid={testId}>
      ≈ {text}{' '}
      {prices.data?.source === 'sandbox' ? (
        <Tag color="warning" fill="outline" data-testid="sandbox-price">
          {t('convert.sandbox')}
        </Tag>
      ) : null}
    </span>
  );
}
