import { useTranslation } from '@cw/shared-state/i18n';
import { PRICE_COLOR_MODES, type PriceColorMode, priceColors, useSettings } from '@cw/shared-state/settings';
import { List } from 'antd-mobile';
import { NAMESPACE } from '../../../i18n.ts';
import { CheckMark } from '../../../lib/check-mark.tsx';
import { useSave } from '../../../lib/use-save.ts';
import * as styles from './price-mode.module.css';

const LABELS: Record<PriceColorMode, string> = { 'green-up': 'priceMode.greenUp', 'red-up': 'priceMode.redUp' };

function percent(value: number, locale: string): string {
  return new Intl.NumberFormat(locale, { style: 'percent', minimumFractionDigits: 2, signDisplay: 'always' }).format(
    value,
  );
}

/** The rise/fall colour convention, each option with a small preview. */
export function ColorOptions() {
  const { t } = useTranslation(NAMESPACE);
  const save = useSave();
  const current = useSettings((s) => s.priceColor);
  const language = useSettings((s) => s.language);
  const setPriceColor = useSettings((s) => s.setPriceColor);

  return (
    <List header={t('priceMode.colorSection')}>
      {PRICE_COLOR_MODES.map((mode) => {
        const { rise, fall } = priceColors(mode);
        return (
          <List.Item
            key={mode}
            data-testid={`price-color-${mode}`}
            data-checked={mode === current}
            arrowIcon={false}
            onClick={() => mode !== current && void save(setPriceColor(mode))}
            description={
              <span className={styles.preview}>
                <span className={styles.chip} style={{ color: rise, borderColor: rise }}>
                  {t('priceMode.rise')} ▲ {percent(0.0235, language)}
                </span>
                <span className={styles.chip} style={{ color: fall, borderColor: fall }}>
                  {t('priceMode.fall')} ▼ {percent(-0.012, language)}
                </span>
              </span>
            }
            extra={<CheckMark checked={mode === current} />}
          >
            {t(LABELS[mode])}
          </List.Item>
        );
      })}
    </List>
  );
}
