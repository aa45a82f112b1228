import { useTranslation } from '@cw/shared-state/i18n';
import { useSettings } from '@cw/shared-state/settings';
import { EmptyState } from '@cw/shared-ui/states';
import { List, SearchBar } from 'antd-mobile';
import { useMemo, useState } from 'react';
import { NAMESPACE } from '../../../i18n.ts';
import { CheckMark } from '../../../lib/check-mark.tsx';
import { useSave } from '../../../lib/use-save.ts';
import { currencyOptions, filterCurrencies } from '../utils/filter-currencies.ts';
import * as styles from './price-mode.module.css';

/** The display currency: a searchable list, names in the current language. */
export function CurrencyPicker() {
  const { t } = useTranslation(NAMESPACE);
  const save = useSave();
  const [query, setQuery] = useState('');
  const current = useSettings((s) => s.fiatCurrency);
  const language = useSettings((s) => s.language);
  const setFiatCurrency = useSettings((s) => s.setFiatCurrency);
  const options = useMemo(() => currencyOptions(language), [language]);
  const shown = filterCurrencies(options, query, language);

  return (
    <List header={t('priceMode.currencySection')} data-testid="fiat-picker">
      <div className={styles.search}>
        <SearchBar
          placeholder={t('priceMode.search')}
          value={query}
          onChange={setQuery}
          data-testid="fiat-search"
          aria-label={t('priceMode.search')}
        />
      </div>
      {shown.length === 0 && (
        <div data-testid="fiat-empty">
          <EmptyState text={t('priceMode.noResults')} />
        </div>
      )}
      {shown.map(({ code, symbol, name }) => (
        <List.Item
          key={code}
          data-testid={`fiat-option-${code}`}
          data-checked={code === current}
          arrowIcon={false}
          prefix={
            <span className={styles.symbol} aria-hidden>
              {symbol}
            </span>
          }
          onClick={() => code !== current && void save(setFiatCurrency(code))}
          description={<span className={styles.code}>{symbol === code ? code : `${code} · ${symbol}`}</span>}
          extra={<CheckMark checked={code === current} />}
        >
          {name}
        </List.Item>
      ))}
    </List>
  );
}
