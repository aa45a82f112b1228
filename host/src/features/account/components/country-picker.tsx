import CheckList from 'antd-mobile/es/components/check-list';
import ErrorBlock from 'antd-mobile/es/components/error-block';
import Popup from 'antd-mobile/es/components/popup';
import SearchBar from 'antd-mobile/es/components/search-bar';
import { useDeferredValue, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { localisedCountries, searchCountries } from '../utils/countries.ts';

/** Bottom sheet listing every country in the current language, searchable. Loaded on first open. */
export default function CountryPicker(props: { value: string; onSelect: (code: string) => void; onClose: () => void }) {
  const { t, i18n } = useTranslation('host');
  const [query, setQuery] = useState('');
  const deferredQuery = useDeferredValue(query);
  const all = useMemo(() => localisedCountries(i18n.language), [i18n.language]);
  const shown = useMemo(() => searchCountries(all, deferredQuery), [all, deferredQuery]);
  return (
    <Popup visible onMaskClick={props.onClose} onClose={props.onClose} bodyClassName="country-picker" destroyOnClose>
      <h2 className="country-picker__header">{t('account.country.title')}</h2>
      <SearchBar
        placeholder={t('account.country.search')}
        value={query}
        onChange={setQuery}
        autoFocus
        data-testid="country-search"
      />
      <div className="country-picker__list" data-testid="country-list">
        {shown.length === 0 ? (
          <ErrorBlock status="empty" title={t('account.country.empty')} description={null} />
        ) : (
          <CheckList value={props.value ? [props.value] : []} onChange={(v) => v[0] && props.onSelect(String(v[0]))}>
            {shown.map((country) => (
              <CheckList.Item key={country.code} value={country.code} data-testid={`country-option-${country.code}`}>
                {country.name}
              </CheckList.Item>
            ))}
          </CheckList>
        )}
      </div>
    </Popup>
  );
}
