import { useTranslation } from '@cw/shared-state/i18n';
import { CheckList, ErrorBlock, Popup, SearchBar } from 'antd-mobile';
import { useDeferredValue, useMemo, useState } from 'react';
import { NAMESPACE } from '../../../i18n.ts';
import { areaCodes, searchAreaCodes } from '../utils/area-codes.ts';
import * as styles from './support.module.css';

/** A bottom sheet of every country's calling code, in the reader's language, searchable. */
export function AreaCodePicker(props: { value: string; onSelect: (country: string) => void; onClose: () => void }) {
  const { t, i18n } = useTranslation(NAMESPACE);
  const [query, setQuery] = useState('');
  const deferred = useDeferredValue(query);
  const all = useMemo(() => areaCodes(i18n.language), [i18n.language]);
  const shown = useMemo(() => searchAreaCodes(all, deferred), [all, deferred]);
  return (
    <Popup visible onMaskClick={props.onClose} onClose={props.onClose} destroyOnClose bodyClassName={styles.picker}>
      <h2 className={styles.pickerTitle}>{t('support.areaCode')}</h2>
      <SearchBar placeholder={t('support.areaSearch')} value={query} onChange={setQuery} data-testid="area-search" />
      <div className={styles.pickerList}>
        {shown.length === 0 ? (
          <ErrorBlock status="empty" title={t('support.areaNone')} description={null} />
        ) : (
          <CheckList value={props.value ? [props.value] : []} onChange={(v) => v[0] && props.onSelect(String(v[0]))}>
            {shown.map((a) => (
              <CheckList.Item key={a.country} value={a.country} data-testid={`area-option-${a.country}`}>
                {a.name} <span className={styles.code}>{a.code}</span>
              </CheckList.Item>
            ))}
          </CheckList>
        )}
      </div>
    </Popup>
  );
}
