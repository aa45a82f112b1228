import { useTranslation } from '@cw/shared-state/i18n';
import {
  checkFiatAmount,
  type FiatAmountError,
  formatFiatDecimal,
  QUICK_BUY_COINS,
  QUICK_BUY_MAX_AMOUNT,
  QUICK_BUY_MIN_AMOUNT,
  type QuickBuyCoin,
  useSettings,
} from '@cw/shared-state/settings';
import { dialog, isDialogCancelled } from '@cw/shared-ui/dialog';
import { List, Selector, Switch } from 'antd-mobile';
import { NAMESPACE } from '../../../i18n.ts';
import { useSave } from '../../../lib/use-save.ts';

const AMOUNT_ERRORS: Record<FiatAmountError, string> = {
  required: 'quickBuy.errors.required',
  format: 'quickBuy.errors.format',
  tooSmall: 'quickBuy.errors.tooSmall',
  tooLarge: 'quickBuy.errors.tooLarge',
};

const COIN_OPTIONS = QUICK_BUY_COINS.map((coin) => ({ label: coin, value: coin }));

/** Quick coin buying: on/off, amount per buy (input dialog) and the coin. */
export function QuickBuySection() {
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

  async function editAmount() {
    let typed: string;
    try {
      typed = await dialog.input({
        title: t('quickBuy.dialogTitle', { currency }),
        tips: t('quickBuy.limits', limits),
        value: quickBuy.fiatAmount,
        inputType: 'text',
        // Bad input keeps the dialog open, with the error and what was typed.
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
  }

  return (
    <List header={t('hub.sectionQuickBuy')}>
      <List.Item
        description={t('hub.quickBuyEnabledHint')}
        extra={
          <Switch
            data-testid="settings-quick-buy-toggle"
            checked={quickBuy.enabled}
            onChange={(enabled) =>
              void save(setQuickBuy({ enabled }), enabled ? t('quickBuy.turnedOn') : t('quickBuy.turnedOff'))
            }
          />
        }
      >
        {t('hub.quickBuyEnabled')}
      </List.Item>
      <List.Item
        data-testid="settings-quick-buy"
        onClick={() => void editAmount()}
        extra={
          <span data-testid="settings-quick-buy-amount">
            {formatFiatDecimal(quickBuy.fiatAmount, currency, language)}
          </span>
        }
      >
        {t('hub.quickBuyAmount')}
      </List.Item>
      <List.Item title={t('hub.quickBuyCoin')} data-testid="settings-quick-buy-coin">
        <Selector<QuickBuyCoin>
          columns={4}
          options={COIN_OPTIONS}
          value={[quickBuy.coin]}
          onChange={([coin]) => {
            if (coin && coin !== quickBuy.coin) void save(setQuickBuy({ coin }));
          }}
        />
      </List.Item>
    </List>
  );
}
