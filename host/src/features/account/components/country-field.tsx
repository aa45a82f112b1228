import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { countryName } from '../utils/country-names.ts';

const CountryPicker = lazy(() => import('./country-picker.tsx'));

/** Shows the chosen country (localised name) and opens the searchable picker. */
export function CountryField(props: {
  name: string;
  value: string;
  invalid: boolean;
  onChange: (code: string) => void;
  testId: string;
}) {
  const { t, i18n } = useTranslation('host');
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        id={props.name}
        className={props.value ? 'account-input account-select' : 'account-input account-select account-select--empty'}
        data-testid={props.testId}
        data-value={props.value}
        aria-haspopup="dialog"
        aria-invalid={props.invalid || undefined}
        aria-describedby={props.invalid ? `${props.name}-error` : undefined}
        onClick={() => setOpen(true)}
      >
        {props.value ? countryName(props.value, i18n.language) : t('account.placeholder.country')}
      </button>
      {open && (
        <Suspense fallback={null}>
          <CountryPicker
            value={props.value}
            onClose={() => setOpen(false)}
            onSelect={(code) => {
              props.onChange(code);
              setOpen(false);
            }}
          />
        </Suspense>
      )}
    </>
  );
}
