import { useTranslation } from '@cw/shared-state/i18n';
import { coinDisplay, useAmountFormat } from '@cw/shared-state/money';
import { useNavigate, useSearchParams } from '@cw/shared-state/router';
import { CoinIcon } from '@cw/shared-ui/coin-icon';
import { ErrorState, LoadingState } from '@cw/shared-ui/states';
import { SearchBar } from 'antd-mobile';
import { useState } from 'react';
import { NAMESPACE } from '../../../i18n.ts';
import { useConvertBalances } from '../api/convert-queries.ts';
import { useConvertCoins } from '../hooks/use-convert-coins.ts';
import { useSessionStatus } from '../hooks/use-signed-in.ts';
import { type ConvertCoin, filterCoins, isConvertCoin } from '../utils/coins.ts';
import * as styles from './convert-page.module.css';
import { ConvertPage } from './convert-page.tsx';
import { FiatLine } from './fiat-line.tsx';

/** /convert/selectCurrency?side=from|to&from=&to=: pick a coin, with search; picking the other side's coin swaps. */
function SelectCurrencyScreen() {
  const { t } = useTranslation(NAMESPACE);
  const { display } = useAmountFormat();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [query, setQuery] = useState('');
  const catalogue = useConvertCoins();
  const all = catalogue.coins ?? [];
  const side = params.get('side') === 'to' ? 'to' : 'from';
  const from = isConvertCoin(params.get('from'), all) ? (params.get('from') as ConvertCoin) : 'USDT';
  const to = isConvertCoin(params.get('to'), all) ? (params.get('to') as ConvertCoin) : 'BTC';
  const app = params.get('app') === '1';
  const signedIn = useSessionStatus() === 'authenticated';
  const balances = useConvertBalances(signedIn);
  const coins = filterCoins(query, all);

  const choose = (coin: ConvertCoin) => {
    let next = side === 'from' ? { from: coin, to } : { from, to: coin };
    if (next.from === next.to) next = { from: side === 'from' ? coin : to, to: side === 'from' ? from : coin };
    if (next.from === next.to) next = { from: coin, to: coin === 'USDT' ? 'BTC' : 'USDT' };
    void navigate(`${app ? '/convert/indexToApp' : '/convert'}?from=${next.from}&to=${next.to}`, { replace: true });
  };

  return (
    <ConvertPage title={t('convert.select.title')} testId="convert-select" parent="/convert">
      <SearchBar
        placeholder={t('convert.select.search')}
        value={query}
        onChange={setQuery}
        data-testid="convert-select-search"
      />
      <div className={styles.card} style={{ padding: 0, overflow: 'hidden' }}>
        {catalogue.isError ? (
          <ErrorState onRetry={() => void catalogue.refetch()} />
        ) : catalogue.coins === undefined ? (
          <LoadingState />
        ) : coins.length === 0 ? (
          <p className={styles.muted} style={{ padding: 16 }} data-testid="convert-select-empty">
            {t('convert.select.none')}
          </p>
        ) : (
          coins.map((coin) => {
            const held = balances.data?.get(coin) ?? 0n;
            const current = coin === (side === 'from' ? from : to);
            return (
              <button
                key={coin}
                type="button"
                className={styles.item}
                onClick={() => choose(coin)}
                data-testid={`convert-coin-${coin}`}
                aria-current={current}
              >
                <span className={`${styles.strong} ${styles.coinName}`}>
                  <CoinIcon coin={coin} size={28} />
                  {coin}
                  {current ? ' ✓' : ''}
                </span>
                <span className={styles.itemSide}>
                  {signedIn ? <span>{display(held, coinDisplay(coin, all))}</span> : null}
                  {signedIn && held > 0n ? <FiatLine asset={coin} amountMinor={held} /> : null}
                </span>
              </button>
            );
          })
        )}
      </div>
    </ConvertPage>
  );
}

export default SelectCurrencyScreen;
