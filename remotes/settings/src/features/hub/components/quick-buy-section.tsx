import { useTranslation } from '@cw/shared-state/i18n';
import { formatFiatDecimal, QUICK_BUY_COINS, type QuickBuyCoin, useSettings } from '@cw/shared-state/settings';
import { List, Selector, Switch } from 'antd-mobile';
import { NAMESPACE } from '../../../i18n.ts';
import { useSave } from '../../../lib/use-save.ts';
import { useEditQuickBuyAmount } from '../hooks/use-edit-quick-buy-amount.ts';

const COIN_OPTIONS = QUICK_BUY_COINS.map((coin) => ({ label: coin, value: coin }));

/** Quick coin buying: on/off, amount per buy (input dialog) and the coin. */
export function QuickBuySection() {
  const { t } = useTranslation(NAMESPACE);
  const save = useSave();
  const quickBuy = useSettings((s) => s.quickBuy);
  const currency = useSettings((s) => s.fiatCurrency);
  const language = useSettings((s) => s.language);
  const setQuickBuy = useSettings((s) => s.setQuickBuy);

  const editAmount = useEditQuickBuyAmount();

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
