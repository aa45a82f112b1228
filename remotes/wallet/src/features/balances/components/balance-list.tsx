import type { CatalogueView } from '@cw/shared-state/catalogue';
import { useTranslation } from '@cw/shared-state/i18n';
import { useAmountFormat } from '@cw/shared-state/money';
import type { Prices } from '@cw/shared-state/prices';
import { useNavigate } from '@cw/shared-state/router';
import { CoinIcon } from '@cw/shared-ui/coin-icon';
import { NAMESPACE } from '../../../i18n.ts';
import type { Balance } from '../../../lib/balances.ts';
import { FiatValue } from './fiat-value.tsx';
import * as styles from './hub-screen.module.css';

interface Props {
  balances: Balance[];
  view: CatalogueView;
  prices: Prices | undefined;
}

/** Every coin's available balance with its fiat value (and what is locked); a tap opens its deposit. */
export function BalanceList({ balances, view, prices }: Props) {
  const { t } = useTranslation(NAMESPACE);
  const format = useAmountFormat();
  const navigate = useNavigate();
  return (
    <ul className={styles.balances} data-testid="wallet-balances">
      {balances.map((balance) => (
        <li key={balance.asset} className={styles.balance} data-testid={`balance-${balance.asset}`}>
          <button
            type="button"
            className={styles.balanceButton}
            onClick={() => void navigate(`/coinTopup/deposit?coin=${balance.asset}`)}
          >
            <span className={styles.coin}>
              <CoinIcon coin={balance.asset} size={28} />
              {balance.asset}
            </span>
            <span className={styles.amounts}>
              <span className={styles.available} data-testid={`balance-${balance.asset}-available`}>
                {format.display(balance.availableMinor, view.displayOf(balance.asset))}
              </span>
              <FiatValue prices={prices} coin={balance.asset} minor={balance.availableMinor} />
              {balance.lockedMinor !== '0' && (
                <span className={styles.locked}>
                  {t('hub.locked', { amount: format.display(balance.lockedMinor, view.displayOf(balance.asset)) })}
                </span>
              )}
            </span>
          </button>
        </li>
      ))}
    </ul>
  );
}
