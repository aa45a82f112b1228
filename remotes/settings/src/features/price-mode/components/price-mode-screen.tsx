import { useTranslation } from '@cw/shared-state/i18n';
import { NAMESPACE } from '../../../i18n.ts';
import { ScreenLayout } from '../../../lib/screen-layout.tsx';
import { ColorOptions } from './color-options.tsx';
import { CurrencyPicker } from './currency-picker.tsx';

/** /priceMode: rise/fall colour convention and display currency. */
export default function PriceModeScreen() {
  const { t } = useTranslation(NAMESPACE);
  return (
    <ScreenLayout title={t('priceMode.title')} testId="settings-price-mode-screen" parent="/settings">
      <ColorOptions />
      <CurrencyPicker />
    </ScreenLayout>
  );
}
