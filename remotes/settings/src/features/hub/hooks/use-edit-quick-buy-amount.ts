import { useTranslation } from '@cw/shared-state/i18n';
import {
  checkFiatAmount,
  type FiatAmountError,
  formatFiatDecimal,
  QUICK_BUY_MAX_AMOUNT,
  QUICK_BUY_MIN_AMOUNT,
  useSettings,
} from '@cw/shared-state/settings';
import { dialog, isDialogCancelled } from '@cw/shared-ui/dialog';
import { NAMESPACE } from '../../../i18n.ts';
import { useSave } from '../../../lib/use-save.ts';

const AMOUNT_ERRORS: Record<FiatAmountError, string> = {
  required: 'quickBuy.errors.required',
  format: 'quickBuy.errors.format',
  tooSmall: 'quickBuy.errors.tooSmall',
  tooLarge: 'quickBuy.errors.tooLarge',
};

/** Opens the amount-per-buy input dialog; bad input keeps it open with the error and what was typed. */
export function useEditQuickBuyAmount() {
  const { t } = useTranslation(NAMESPACE);
  const save = useSave();
  const quickBuy = useSettings((s) => s.quickBuy);
  const currency = useSettings((s) => s.fiatCurrency);
  const language = useSettings((s) => s.language);
  const setQuickBuy = useSettings((s) => s.setQuickBuy);
  const limits = {
    min: formatFiatDecimal(QUICK_BUY_MIN_AMOUNT, currency, language),
    max: formatFiatDecimal(QUICK_BUY_MAX_AMOUNT, currency, language),
  };
  return async () => {
    let typed: string;
    try {
      typed = await dialog.input({
        title: t('quickBuy.dialogTitle', { currency }),
        tips: t('quickBuy.limits', limits),
        value: quickBuy.fiatAmount,
        inputType: 'text',
        validate: (value) => {
          const check = checkFiatAmount(value);
          return check.ok ? null : t(AMOUNT_ERRORS[check.error], limits);
        },
      });
    } catch (error) {
      if (isDialogCancelled(error)) return;
      throw error;
    }
    const check = checkFiatAmount(typed);
    if (!check.ok) return;
    await save(setQuickBuy({ fiatAmount: check.value }), t('quickBuy.saved'));
  };
}
