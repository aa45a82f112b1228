import { localizeDecimal } from '@cw/shared-state/money';
import { useNavigate } from '@cw/shared-state/router';
import { useSettings } from '@cw/shared-state/settings';
import { Button } from 'antd-mobile';
import { useUiTranslation } from '../i18n/index.ts';

/**
 * The quick-buy button of the wallet and convert screens: shown when quick buy is on in Settings,
 * one tap opens a buy of the configured amount of the chosen coin, pre-filled, to confirm.
 */
export function QuickBuyButton({ testId = 'quick-buy' }: { testId?: string }) {
  const { t, i18n } = useUiTranslation();
  const navigate = useNavigate();
  const quickBuy = useSettings((s) => s.quickBuy);
  if (!quickBuy.enabled) return null;
  const query = new URLSearchParams({ side: 'buy', coin: quickBuy.coin, amount: quickBuy.fiatAmount, quick: '1' });
  return (
    <Button
      block
      color="primary"
      fill="outline"
      data-testid={testId}
      onClick={() => void navigate(`/buySell?${query}`)}
    >
      {t('quickBuy.button', { coin: quickBuy.coin, amount: localizeDecimal(quickBuy.fiatAmount, i18n.language) })}
    </Button>
  );
}
